"use client";

import { Field } from "@/components/ui/field";
import { FormMessage } from "@/components/ui/form-message";
import { Input } from "@/components/ui/input";
import { SubmitButton } from "@/components/ui/submit-button";
import { useFormAction } from "@/components/ui/use-form-action";
import { updateSettingsAction } from "@/lib/dashboard/actions/settings";

/** `maxRpm`: the highest per-token rate the operator lets a workspace set. */
export function SettingsForm({ name, maxRpm }: { name: string; maxRpm: number }) {
  const { state, pending, form } = useFormAction(updateSettingsAction);
  const errors = state.fieldErrors ?? {};
  return (
    <form {...form} className="grid gap-4">
      <Field id="settings-name" label="Workspace name" error={errors.name}>
        {(control) => <Input {...control} name="name" defaultValue={name} maxLength={100} required />}
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          id="settings-retention"
          label="Keep traces for (days)"
          hint="1–3650; older traces are deleted hourly. Blank keeps the current setting (30 days unless changed)."
          error={errors.traceRetentionDays}
        >
          {(control) => <Input {...control} name="traceRetentionDays" inputMode="numeric" />}
        </Field>
        <Field
          id="settings-rpm"
          label="Requests per minute per token"
          hint={`Up to ${maxRpm}. Blank keeps the current limit (the operator's default unless changed).`}
          error={errors.rateLimitRpm}
        >
          {(control) => <Input {...control} name="rateLimitRpm" inputMode="numeric" />}
        </Field>
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <SubmitButton pending={pending}>Save settings</SubmitButton>
        <FormMessage state={state} />
      </div>
    </form>
  );
}
