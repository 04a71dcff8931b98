"use client";

import { KeyRound } from "lucide-react";
import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogTrigger } from "@/components/ui/dialog";
import { FormFields } from "@/components/ui/form-fields";
import { FormMessage } from "@/components/ui/form-message";
import { SubmitButton } from "@/components/ui/submit-button";
import { TextField } from "@/components/ui/text-field";
import { useFormAction } from "@/components/ui/use-form-action";
import { type ActionState, IDLE } from "@/lib/dashboard/action-state";

/** The workspace model's settings beside its key: where it is, which model, what it costs. */
function ModelFields({ errors }: { errors: Partial<Record<string, string>> }) {
  return (
    <>
      <TextField
        label="Base URL"
        hint="The API's address with its version, e.g. https://api.openai.com/v1. Public https addresses only."
        name="base_url"
        type="url"
        inputMode="url"
        autoComplete="off"
        spellCheck={false}
        required
      />
      <TextField
        label="Model"
        hint="As the API names it."
        name="model"
        autoComplete="off"
        spellCheck={false}
        required
      />
      <fieldset className="grid gap-2">
        <legend className="mb-1 text-sm font-medium">Price per million tokens (USD)</legend>
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField label="Input" name="price_input" inputMode="decimal" placeholder="0.15" required />
          <TextField label="Output" name="price_output" inputMode="decimal" placeholder="0.60" required />
        </div>
        {errors.price_per_mtok ? (
          <p className="text-xs font-medium text-destructive">{errors.price_per_mtok}</p>
        ) : (
          <p className="text-xs text-muted-foreground">
            What budgets charge its calls by; 0 for a model that costs nothing.
          </p>
        )}
      </fieldset>
    </>
  );
}

/**
 * Add or replace a provider key in a dialog; the key goes to the server once and is never shown again. The
 * workspace model (`asksForModel`) takes its base URL, model and price with it.
 */
export function KeyDialog({
  providerName,
  replacing,
  asksForModel,
  save,
  onSaved,
}: {
  providerName: string;
  replacing: boolean;
  asksForModel: boolean;
  save: (previous: ActionState, form: FormData) => Promise<ActionState>;
  onSaved: (state: ActionState) => void;
}) {
  const [open, setOpen] = useState(false);
  const { state, pending, form } = useFormAction(save);
  const errors = state.fieldErrors ?? {};

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
        title={
          asksForModel
            ? `${replacing ? "Replace" : "Add"} your own model`
            : `${replacing ? "Replace" : "Add"} your ${providerName} key`
        }
        description={
          asksForModel
            ? "Extract asks this model before the operator's. The key is stored encrypted and only its last 4 characters are ever shown."
            : "Stored encrypted; only its last 4 characters are ever shown. It takes precedence over the operator's key."
        }
      >
        <form {...form} className="grid gap-4">
          <FormFields idPrefix="provider" errors={errors}>
            {asksForModel ? <ModelFields errors={errors} /> : null}
            <TextField
              label="API key"
              name="key"
              type="password"
              autoComplete="off"
              spellCheck={false}
              required
            />
          </FormFields>
          <FormMessage state={state.status === "error" && !state.fieldErrors ? state : IDLE} />
          <div className="flex justify-end">
            <SubmitButton pending={pending}>Save key</SubmitButton>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
