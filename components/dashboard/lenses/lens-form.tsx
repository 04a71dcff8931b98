"use client";

import { TimeRangeField } from "@/components/dashboard/time-range-field";
import { FormFields } from "@/components/ui/form-fields";
import { FormFooter } from "@/components/ui/form-footer";
import { TextField } from "@/components/ui/text-field";
import { useFormAction } from "@/components/ui/use-form-action";
import { saveLensAction } from "@/lib/dashboard/actions/lenses";

/** Creates a lens, or replaces one of the same name (a built-in name makes it the workspace's own). */
export function LensForm() {
  const { state, pending, form } = useFormAction(saveLensAction, { resetOnSuccess: true });
  return (
    <form {...form} className="grid gap-4">
      <FormFields idPrefix="lens" errors={state.fieldErrors ?? {}}>
        <div className="grid gap-4 sm:grid-cols-3">
          <TextField
            label="Name"
            hint="Used as lens: name."
            name="name"
            placeholder="e.g. company-wiki"
            autoComplete="off"
          />
          <TextField label="Description" name="description" placeholder="e.g. Our internal docs" />
          <TimeRangeField label="Default time range" />
        </div>
        <TextField
          label="Domains"
          hint="Comma-separated; subdomains included."
          name="domains"
          placeholder="e.g. wiki.example.com, docs.example.com"
        />
      </FormFields>
      <FormFooter pending={pending} state={state}>
        Save lens
      </FormFooter>
    </form>
  );
}
