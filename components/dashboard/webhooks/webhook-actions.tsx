"use client";

import { Send } from "lucide-react";
import { useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { DestructiveAction } from "@/components/ui/destructive-action";
import { FormMessage } from "@/components/ui/form-message";
import { type ActionState, IDLE } from "@/lib/dashboard/action-state";

/** Send a test event to one webhook, or delete it; the last outcome below. */
export function WebhookActions({
  url,
  test,
  remove,
}: {
  url: string;
  test: () => Promise<ActionState>;
  remove: () => Promise<ActionState>;
}) {
  const [outcome, setOutcome] = useState<ActionState>(IDLE);
  const [sending, startSend] = useTransition();
  return (
    <div className="flex flex-col items-end gap-1">
      <div className="flex flex-wrap justify-end gap-1">
        <Button
          variant="ghost"
          size="sm"
          disabled={sending}
          aria-busy={sending}
          aria-label={`Send a test event to ${url}`}
          onClick={() => startSend(async () => setOutcome(await test()))}
        >
          <Send aria-hidden /> {sending ? "Sending…" : "Send test event"}
        </Button>
        <DestructiveAction
          text="Delete"
          label={`Delete webhook ${url}`}
          title="Delete this webhook?"
          description="Events are no longer sent to it, and its delivery log is deleted."
          confirmLabel="Delete webhook"
          action={remove}
        />
      </div>
      <FormMessage state={outcome} className="max-w-64 text-right text-xs" />
    </div>
  );
}
