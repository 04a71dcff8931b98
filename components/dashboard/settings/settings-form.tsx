"use client";

import { Checkbox } from "@/components/ui/checkbox";
import { FormFields } from "@/components/ui/form-fields";
import { FormFooter } from "@/components/ui/form-footer";
import { Label } from "@/components/ui/label";
import { SelectField } from "@/components/ui/select-field";
import { TextField } from "@/components/ui/text-field";
import { useFormAction } from "@/components/ui/use-form-action";
import { updateSettingsAction } from "@/lib/dashboard/actions/settings";

const SEARCH_MODES = [
  { value: "auto", label: "Auto (the providers that add something, learned from this workspace's searches)" },
  { value: "fanout", label: "Fan out (every provider, every time)" },
  { value: "budget", label: "Budget (cheapest first until enough results)" },
];

/**
 * `maxRpm`: the highest per-token rate the operator lets a workspace set; `groundedSnippets` and
 * `defaultSearchMode`: the workspace's current web_search defaults.
 */
export function SettingsForm({
  name,
  groundedSnippets,
  defaultSearchMode,
  maxRpm,
}: {
  name: string;
  groundedSnippets: boolean;
  defaultSearchMode: string;
  maxRpm: number;
}) {
  const { state, pending, form } = useFormAction(updateSettingsAction);
  return (
    <form {...form} className="grid gap-4">
      <FormFields idPrefix="settings" errors={state.fieldErrors ?? {}}>
        <TextField label="Workspace name" name="name" defaultValue={name} maxLength={100} required />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label="Keep traces for (days)"
            hint="1–3650; older traces are deleted hourly. Blank keeps the current setting (30 days unless changed)."
            name="traceRetentionDays"
            inputMode="numeric"
          />
          <TextField
            label="Requests per minute per token"
            hint={`Up to ${maxRpm}. Blank keeps the current limit (the operator's default unless changed).`}
            name="rateLimitRpm"
            inputMode="numeric"
          />
        </div>
        <SelectField
          label="Default search mode"
          hint="For searches that name neither a mode nor providers. Auto calls every provider until it has measured each, then leaves out paid ones whose results rarely reach the top (Budgets shows what each adds)."
          name="defaultSearchMode"
          defaultValue={defaultSearchMode}
          options={SEARCH_MODES}
        />
      </FormFields>
      <div className="flex items-start gap-2">
        <Checkbox
          id="settings-grounded"
          name="groundedSnippets"
          value="on"
          defaultChecked={groundedSnippets}
          aria-describedby="settings-grounded-hint"
          className="mt-0.5"
        />
        <div className="grid gap-1">
          <Label htmlFor="settings-grounded">Grounded snippets by default</Label>
          <p id="settings-grounded-hint" className="text-xs text-muted-foreground">
            Searches fetch their top results and have the operator's model write each snippet from what the
            page says, unless a call sets <code className="font-mono">grounded_snippets</code> itself. Slower,
            and the fetches and model calls count against budgets.
          </p>
        </div>
      </div>
      <FormFooter pending={pending} state={state}>
        Save settings
      </FormFooter>
    </form>
  );
}
