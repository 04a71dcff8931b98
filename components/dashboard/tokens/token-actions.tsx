"use client";

import { RefreshCw, Trash2 } from "lucide-react";
import { useRef } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmAction } from "@/components/ui/confirm-action";
import type { ActionState } from "@/lib/dashboard/action-state";
import type { NewToken } from "@/lib/dashboard/actions/tokens";
import { useShowNewToken } from "./new-token";

/** Rotate (new secret, old one revoked) and revoke, each confirmed first. */
export function TokenActions({
  name,
  rotate,
  revoke,
}: {
  name: string;
  rotate: () => Promise<ActionState<NewToken>>;
  revoke: () => Promise<ActionState>;
}) {
  const showToken = useShowNewToken();
  const rotateButton = useRef<HTMLButtonElement>(null);
  return (
    <div className="flex justify-end gap-1">
      <ConfirmAction
        trigger={
          <Button ref={rotateButton} variant="ghost" size="sm" aria-label={`Rotate ${name}`}>
            <RefreshCw aria-hidden /> Rotate
          </Button>
        }
        title={`Rotate “${name}”?`}
        description="A new token with the same name, scopes and expiry is created and shown once; this one stops working within seconds. Update your clients with the new one."
        confirmLabel="Rotate token"
        action={async () => {
          const result = await rotate();
          if (result.status === "success" && result.data) showToken(result.data, rotateButton.current);
          return result;
        }}
      />
      <ConfirmAction
        trigger={
          <Button variant="ghost" size="sm" className="text-destructive" aria-label={`Revoke ${name}`}>
            <Trash2 aria-hidden /> Revoke
          </Button>
        }
        title={`Revoke “${name}”?`}
        description="Every client using this token is refused within seconds. This cannot be undone."
        confirmLabel="Revoke token"
        action={revoke}
      />
    </div>
  );
}
