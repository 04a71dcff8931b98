"use client";

import { useState } from "react";
import { Field } from "@/components/ui/field";
import { FormMessage } from "@/components/ui/form-message";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { SubmitButton } from "@/components/ui/submit-button";
import { useFormAction } from "@/components/ui/use-form-action";
import { setBudgetAction } from "@/lib/dashboard/actions/budgets";

export interface BudgetProviderOption {
  value: string;
  label: string;
  freeTier: { requests: number; period: "day" | "month" | "lifetime" } | null;
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

/**
 * Creates or replaces the budget for a provider, metric and period. Choosing a provider with a free tier
 * fills in that free tier as a request budget, the usual first limit.
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
  const errors = state.fieldErrors ?? {};
  const change = (patch: Partial<BudgetDraft>) => setDraft((current) => ({ ...current, ...patch }));

  function chooseProvider(provider: string) {
    const tier = providers.find((p) => p.value === provider)?.freeTier;
    change(
      tier
        ? {
            provider,
            metric: "requests",
            period: tier.period,
            limit: String(tier.requests),
            soft: String(Math.floor(tier.requests * 0.8)),
          }
        : { provider },
    );
  }

  return (
    <form {...form} className="grid gap-4" id="budget-form">
      <div className="grid gap-4 sm:grid-cols-3">
        <Field
          id="budget-provider"
          label="Provider"
          error={errors.provider}
          hint="Free tiers fill in their own limit."
        >
          {(control) => (
            <Select
              {...control}
              name="provider"
              options={providers}
              value={draft.provider}
              onValueChange={chooseProvider}
            />
          )}
        </Field>
        <Field id="budget-metric" label="Counts" error={errors.metric}>
          {(control) => (
            <Select
              {...control}
              name="metric"
              options={METRICS}
              value={draft.metric}
              onValueChange={(metric) => change({ metric: metric as BudgetDraft["metric"] })}
            />
          )}
        </Field>
        <Field id="budget-period" label="Period" error={errors.period}>
          {(control) => (
            <Select
              {...control}
              name="period"
              options={PERIODS}
              value={draft.period}
              onValueChange={(period) => change({ period: period as BudgetDraft["period"] })}
            />
          )}
        </Field>
      </div>
      <div className="grid gap-4 sm:grid-cols-3">
        <Field
          id="budget-limit"
          label="Hard limit"
          error={errors.limit}
          hint={
            draft.metric === "usd" ? "Dollars; calls beyond it are refused." : "Calls beyond it are refused."
          }
        >
          {(control) => (
            <Input
              {...control}
              name="limit"
              inputMode="decimal"
              value={draft.limit}
              onChange={(event) => change({ limit: event.target.value })}
              required
            />
          )}
        </Field>
        <Field
          id="budget-soft"
          label="Soft limit (optional)"
          error={errors.soft}
          hint="Raises an alert, refuses nothing."
        >
          {(control) => (
            <Input
              {...control}
              name="soft"
              inputMode="decimal"
              value={draft.soft}
              onChange={(event) => change({ soft: event.target.value })}
            />
          )}
        </Field>
        {draft.period === "month" ? (
          <Field
            id="budget-anchor"
            label="Month starts on day"
            error={errors.anchorDay}
            hint="1–31; your billing day."
          >
            {(control) => <Input {...control} name="anchorDay" inputMode="numeric" defaultValue="1" />}
          </Field>
        ) : null}
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <SubmitButton pending={pending}>Save budget</SubmitButton>
        <FormMessage state={state} />
      </div>
    </form>
  );
}
