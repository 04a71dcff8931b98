"use client";

import { FlaskConical } from "lucide-react";
import { useCallback, useId, useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { DestructiveAction } from "@/components/ui/destructive-action";
import { FormMessage } from "@/components/ui/form-message";
import { type ActionState, IDLE } from "@/lib/dashboard/action-state";
import { KeyDialog } from "./key-dialog";

interface KeyActionsProps {
  providerName: string;
  hasKey: boolean;
  /** The workspace model: its dialog asks for the base URL, model and price too. */
  asksForModel: boolean;
  save: (previous: ActionState, form: FormData) => Promise<ActionState>;
  test: () => Promise<ActionState>;
  remove: () => Promise<ActionState>;
}

/**
 * Add / replace, test and delete the workspace's key for one provider. Below: that a test is a real,
 * budgeted request, and the last outcome (a test's says what it spent).
 */
export function KeyActions({ providerName, hasKey, asksForModel, save, test, remove }: KeyActionsProps) {
  const [outcome, setOutcome] = useState<ActionState>(IDLE);
  const [testing, startTest] = useTransition();
  const onSaved = useCallback((state: ActionState) => setOutcome(state), []);
  const testNoteId = useId();

  return (
    <div className="flex flex-col items-end gap-1">
      <div className="flex flex-wrap justify-end gap-1">
        <KeyDialog
          providerName={providerName}
          replacing={hasKey}
          asksForModel={asksForModel}
          save={save}
          onSaved={onSaved}
        />
        {hasKey ? (
          <>
            <Button
              variant="ghost"
              size="sm"
              disabled={testing}
              aria-busy={testing}
              aria-label={`Test ${providerName} key`}
              aria-describedby={testNoteId}
              onClick={() => startTest(async () => setOutcome(await test()))}
            >
              <FlaskConical aria-hidden /> {testing ? "Testing…" : "Test"}
            </Button>
            <DestructiveAction
              text="Delete"
              label={`Delete ${providerName} key`}
              title={`Delete your ${providerName} key?`}
              description="Calls fall back to the operator's key if there is one, otherwise this provider stops being used. Budgets stay as they are."
              confirmLabel="Delete key"
              action={remove}
            />
          </>
        ) : null}
      </div>
      {hasKey ? (
        <p id={testNoteId} className="max-w-40 text-right text-xs text-muted-foreground @2xl:max-w-64">
          Test sends one real request to {providerName}; it counts against its budget.
        </p>
      ) : null}
      <FormMessage state={outcome} className="max-w-40 text-right text-xs @2xl:max-w-64" />
    </div>
  );
}
