"use client";

import { KeyRound } from "lucide-react";
import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogTrigger } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { FormMessage } from "@/components/ui/form-message";
import { Input } from "@/components/ui/input";
import { SubmitButton } from "@/components/ui/submit-button";
import { useFormAction } from "@/components/ui/use-form-action";
import { type ActionState, IDLE } from "@/lib/dashboard/action-state";

/** Add or replace a provider key in a dialog; the key goes to the server once and is never shown again. */
export function KeyDialog({
  providerName,
  replacing,
  save,
  onSaved,
}: {
  providerName: string;
  replacing: boolean;
  save: (previous: ActionState, form: FormData) => Promise<ActionState>;
  onSaved: (state: ActionState) => void;
}) {
  const [open, setOpen] = useState(false);
  const { state, pending, form } = useFormAction(save);

  useEffect(() => {
    if (state.status !== "success") return;
    setOpen(false);
    onSaved(state);
  }, [state, onSaved]);

  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button
          variant={replacing ? "ghost" : "outline"}
          size="sm"
          aria-label={`${replacing ? "Replace" : "Add"} ${providerName} key`}
        >
          <KeyRound aria-hidden /> {replacing ? "Replace" : "Add key"}
        </Button>
      </DialogTrigger>
      <DialogContent
        title={`${replacing ? "Replace" : "Add"} your ${providerName} key`}
        description="Stored encrypted; only its last 4 characters are ever shown. It takes precedence over the operator's key."
      >
        <form {...form} className="grid gap-4">
          <Field id="provider-key" label="API key" error={state.fieldErrors?.key}>
            {(control) => (
              <Input {...control} name="key" type="password" autoComplete="off" spellCheck={false} required />
            )}
          </Field>
          <FormMessage state={state.status === "error" && !state.fieldErrors ? state : IDLE} />
          <div className="flex justify-end">
            <SubmitButton pending={pending}>Save key</SubmitButton>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
