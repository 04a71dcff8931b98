"use client";

import { LoaderCircle } from "lucide-react";
import { AlertDialog } from "radix-ui";
import { type ReactNode, useState, useTransition } from "react";
import type { ActionState } from "@/lib/dashboard/action-state";
import { Button } from "./button";
import { cn } from "./cn";
import { overlayClasses, panelClasses } from "./dialog";
import { FormMessage } from "./form-message";

interface ConfirmActionProps {
  /** The button that opens the confirmation. */
  trigger: ReactNode;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  /** A server action; the dialog stays open with its error if it fails. */
  action: () => Promise<ActionState<unknown>>;
}

/** A destructive action behind a Radix alert dialog: nothing happens until the user confirms. */
export function ConfirmAction({ trigger, title, description, confirmLabel, action }: ConfirmActionProps) {
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string>();
  const [pending, startTransition] = useTransition();

  function confirm() {
    startTransition(async () => {
      const result = await action();
      if (result.status === "error") setError(result.message ?? "That did not work.");
      else setOpen(false);
    });
  }

  return (
    <AlertDialog.Root
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        setError(undefined);
      }}
    >
      <AlertDialog.Trigger asChild>{trigger}</AlertDialog.Trigger>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className={overlayClasses} />
        <AlertDialog.Content className={cn(panelClasses, "max-w-md")}>
          <AlertDialog.Title className="text-lg font-semibold">{title}</AlertDialog.Title>
          <AlertDialog.Description className="text-sm text-muted-foreground">
            {description}
          </AlertDialog.Description>
          <FormMessage state={{ status: error ? "error" : "idle", message: error }} />
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <AlertDialog.Cancel asChild>
              <Button variant="outline">Cancel</Button>
            </AlertDialog.Cancel>
            <Button variant="destructive" onClick={confirm} disabled={pending} aria-busy={pending}>
              {pending ? <LoaderCircle className="animate-spin" aria-hidden /> : null}
              {confirmLabel}
            </Button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
