"use client";

import { TimeRangeField } from "@/components/dashboard/time-range-field";
import { Field } from "@/components/ui/field";
import { FormMessage } from "@/components/ui/form-message";
import { Input } from "@/components/ui/input";
import { SubmitButton } from "@/components/ui/submit-button";
import { useFormAction } from "@/components/ui/use-form-action";
import { saveLensAction } from "@/lib/dashboard/actions/lenses";

/** Creates a lens, or replaces one of the same name (a built-in name makes it the workspace's own). */
export function LensForm() {
  const { state, pending, form } = useFormAction(saveLensAction, { resetOnSuccess: true });
  const errors = state.fieldErrors ?? {};
  return (
    <form {...form} className="grid gap-4">
      <div className="grid gap-4 sm:grid-cols-3">
        <Field id="lens-name" label="Name" hint="Used as lens: name." error={errors.name}>
          {(control) => <Input {...control} name="name" placeholder="company-wiki" autoComplete="off" />}
        </Field>
        <Field id="lens-description" label="Description" error={errors.description}>
          {(control) => <Input {...control} name="description" placeholder="Our internal docs" />}
        </Field>
        <TimeRangeField id="lens-time" label="Default time range" error={errors.time_range} />
      </div>
      <Field
        id="lens-domains"
        label="Domains"
        hint="Comma-separated; subdomains included."
        error={errors.domains}
      >
        {(control) => <Input {...control} name="domains" placeholder="wiki.example.com, docs.example.com" />}
      </Field>
      <div className="flex flex-wrap items-center gap-3">
        <SubmitButton pending={pending}>Save lens</SubmitButton>
        <FormMessage state={state} />
      </div>
    </form>
  );
}
