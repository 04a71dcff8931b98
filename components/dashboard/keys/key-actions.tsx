"use client";

import { FlaskConical, Trash2 } from "lucide-react";
import { useCallback, useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmAction } from "@/components/ui/confirm-action";
import { FormMessage } from "@/components/ui/form-message";
import { type ActionState, IDLE } from "@/lib/dashboard/action-state";
import { KeyDialog } from "./key-dialog";

interface KeyActionsProps {
  providerName: string;
  hasKey: boolean;
  save: (previous: ActionState, form: FormData) => Promise<ActionState>;
  test: () => Promise<ActionState>;
  remove: () => Promise<ActionState>;
}

/** Add / replace, test and delete the workspace's key for one provider, with the last outcome below. */
export function KeyActions({ providerName, hasKey, save, test, remove }: KeyActionsProps) {
  const [outcome, setOutcome] = useState<ActionState>(IDLE);
  const [testing, startTest] = useTransition();
  const onSaved = useCallback((state: ActionState) => setOutcome(state), []);

  return (
    <div className="flex flex-col items-end gap-1">
      <div className="flex flex-wrap justify-end gap-1">
        <KeyDialog providerName={providerName} replacing={hasKey} save={save} onSaved={onSaved} />
        {hasKey ? (
          <>
            <Button
              variant="ghost"
              size="sm"
              disabled={testing}
              aria-busy={testing}
              aria-label={`Test ${providerName} key`}
              onClick={() => startTest(async () => setOutcome(await test()))}
            >
              <FlaskConical aria-hidden /> {testing ? "Testing…" : "Test"}
            </Button>
            <ConfirmAction
              trigger={
                <Button
                  variant="ghost"
                  size="sm"
                  className="text-destructive"
                  aria-label={`Delete ${providerName} key`}
                >
                  <Trash2 aria-hidden /> Delete
                </Button>
              }
              title={`Delete your ${providerName} key?`}
              description="Calls fall back to the operator's key if there is one, otherwise this provider stops being used. Budgets stay as they are."
              confirmLabel="Delete key"
              action={remove}
            />
          </>
        ) : null}
      </div>
      <FormMessage state={outcome} className="max-w-64 text-right text-xs" />
    </div>
  );
}
