"use client";

import { type ChangeEvent, type ComponentProps, useState } from "react";
import { FormFields } from "@/components/ui/form-fields";
import { FormFooter } from "@/components/ui/form-footer";
import type { SelectOption } from "@/components/ui/select";
import { SelectField } from "@/components/ui/select-field";
import { TextField } from "@/components/ui/text-field";
import { useFormAction } from "@/components/ui/use-form-action";
import { setBudgetAction } from "@/lib/dashboard/actions/budgets";
import { freeTierDraft, type Tier } from "@/lib/dashboard/free-tier";

export interface BudgetProviderOption {
  value: string;
  label: string;
  freeTier: Tier | null;
}

export interface BudgetDraft {
  provider: string;
  metric: "requests" | "usd";
  period: "day" | "month" | "lifetime";
  limit: string;
  soft: string;
}

const METRICS = [
  { value: "requests", label: "Requests" },
  { value: "usd", label: "US dollars" },
];
const PERIODS = [
  { value: "day", label: "Per UTC day" },
  { value: "month", label: "Per month" },
  { value: "lifetime", label: "Lifetime" },
];

/** A decimal amount: the hard or the soft limit. */
const AmountField = (props: ComponentProps<typeof TextField>) => <TextField inputMode="decimal" {...props} />;

/**
 * Creates or replaces the budget for a provider, metric and period. Choosing a provider with a free tier
 * fills in that free tier as a budget (of requests, or of dollars for a tier of credit), the usual first limit.
 */
export function BudgetForm({
  providers,
  initial,
}: {
  providers: readonly BudgetProviderOption[];
  initial: BudgetDraft;
}) {
  const { state, pending, form } = useFormAction(setBudgetAction);
  const [draft, setDraft] = useState(initial);
  const change = (patch: Partial<BudgetDraft>) => setDraft((current) => ({ ...current, ...patch }));
  /** A limit input bound to its field of the draft. */
  const amount = (key: "limit" | "soft") => ({
    name: key,
    value: draft[key],
    onChange: (event: ChangeEvent<HTMLInputElement>) => change({ [key]: event.target.value }),
  });
  /** A select bound to its field of the draft (the options' values are the field's own). */
  const choice = (
    key: "provider" | "metric" | "period",
    options: readonly SelectOption[],
    onValueChange = (value: string) => change({ [key]: value }),
  ) => ({ name: key, options, value: draft[key], onValueChange });

  function chooseProvider(provider: string) {
    const tier = providers.find((p) => p.value === provider)?.freeTier;
    change(tier ? freeTierDraft(provider, tier) : { provider });
  }

  return (
    <form {...form} className="grid gap-4" id="budget-form">
      <FormFields idPrefix="budget" errors={state.fieldErrors ?? {}}>
        <div className="grid gap-4 sm:grid-cols-3">
          <SelectField
            label="Provider"
            hint="Free tiers fill in their own limit."
            {...choice("provider", providers, chooseProvider)}
          />
          <SelectField label="Counts" {...choice("metric", METRICS)} />
          <SelectField label="Period" {...choice("period", PERIODS)} />
        </div>
        <div className="grid gap-4 sm:grid-cols-3">
          <AmountField
            label="Hard limit"
            hint={
              draft.metric === "usd"
                ? "Dollars; calls beyond it are refused."
                : "Calls beyond it are refused."
            }
            {...amount("limit")}
            required
          />
          <AmountField
            label="Soft limit (optional)"
            hint="Raises an alert, refuses nothing."
            {...amount("soft")}
          />
          {draft.period === "month" ? (
            <TextField
              label="Month starts on day"
              hint="1–31; your billing day."
              name="anchorDay"
              inputMode="numeric"
              defaultValue="1"
            />
          ) : null}
        </div>
      </FormFields>
      <FormFooter pending={pending} state={state}>
        Save budget
      </FormFooter>
    </form>
  );
}
