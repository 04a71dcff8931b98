import { BellRing, LineChart, Wallet } from "lucide-react";
import {
  type BudgetDraft,
  BudgetForm,
  type BudgetProviderOption,
} from "@/components/dashboard/budgets/budget-form";
import { BudgetTable } from "@/components/dashboard/budgets/budget-table";
import { OperatorQuotas } from "@/components/dashboard/budgets/operator-quotas";
import { PriceTable } from "@/components/dashboard/budgets/price-table";
import { SearchContributions } from "@/components/dashboard/budgets/search-contributions";
import { Chart } from "@/components/dashboard/charts/chart";
import { SpendChart } from "@/components/dashboard/charts/spend-chart";
import { PageHeader } from "@/components/dashboard/page-header";
import { RestrictedPage } from "@/components/dashboard/restricted-page";
import { SectionCard } from "@/components/dashboard/section-card";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/empty-state";
import { budgetLabel, spendCaption } from "@/lib/dashboard/budgets";
import { formatDateTime } from "@/lib/dashboard/format";
import { freeTierDraft } from "@/lib/dashboard/free-tier";
import { dashboardSession } from "@/lib/dashboard/session";
import { requestsByProvider } from "@/lib/dashboard/usage-series";
import { budgetStatus } from "@/lib/services/budgets/budget-status";
import { listBudgets } from "@/lib/services/budgets/list-budgets";
import { searchContributions } from "@/lib/services/budgets/search-contributions";
import { listPrices } from "@/lib/services/providers/list-prices";
import { providerStatus } from "@/lib/services/providers/provider-status";
import { usageHistory } from "@/lib/services/usage/usage-history";

type Budget = Awaited<ReturnType<typeof listBudgets>>["budgets"][number];
type Params = Promise<{ edit?: string; provider?: string }>;

/** The form's starting values: the budget being edited, a provider's free tier, or an overall monthly cap. */
function initialDraft(
  budgets: readonly Budget[],
  options: readonly BudgetProviderOption[],
  params: Awaited<Params>,
): BudgetDraft {
  const editing = budgets.find((b) => b.id === params.edit);
  if (editing) {
    return {
      provider: editing.provider,
      metric: editing.metric,
      period: editing.period,
      limit: String(editing.limit),
      soft: editing.soft === null ? "" : String(editing.soft),
    };
  }
  const tier = options.find((o) => o.value === params.provider)?.freeTier;
  if (params.provider && tier) return freeTierDraft(params.provider, tier);
  return { provider: "*", metric: "usd", period: "month", limit: "", soft: "" };
}

export default async function BudgetsPage({ searchParams }: { searchParams: Params }) {
  const params = await searchParams;
  const { ctx, canAdminister } = await dashboardSession();
  if (!canAdminister) {
    const status = await budgetStatus({ ctx });
    return (
      <RestrictedPage
        title="Budgets"
        notice="Budgets are managed by admins"
        reason="Workspace owners and admins set the limits that keep provider spend in check. The overview shows how much of each budget is used."
      >
        <OperatorQuotas quotas={status.operator_quotas} now={ctx.now()} />
      </RestrictedPage>
    );
  }
  const [status, providers, history, contributions] = await Promise.all([
    listBudgets({ ctx }),
    providerStatus({ ctx }),
    usageHistory({ ctx, input: { days: 30 } }),
    searchContributions({ ctx }),
  ]);
  const now = ctx.now();
  const options: BudgetProviderOption[] = [
    { value: "*", label: "All providers", freeTier: null },
    ...providers.providers
      .map((p) => ({
        value: p.provider,
        label: p.name,
        freeTier: p.free_tier,
      }))
      .sort((a, b) => a.label.localeCompare(b.label)),
  ];
  const draft = initialDraft(status.budgets, options, params);
  const requests = requestsByProvider(history.days);
  const dailyCap = status.budgets.find((b) => b.provider === "*" && b.metric === "usd" && b.period === "day");
  const labelOf = (budgetId: string) => {
    const budget = status.budgets.find((b) => b.id === budgetId);
    return budget ? budgetLabel(budget) : "a deleted budget";
  };

  return (
    <div className="space-y-6">
      <PageHeader
        title="Budgets"
        description="Hard limits refuse calls for a provider (others still answer); soft limits raise an alert. Periods are UTC."
      />
      <SectionCard
        title={params.edit ? "Edit budget" : "Set a budget"}
        description="One budget per provider, metric and period; saving the same three again replaces it."
      >
        <BudgetForm
          key={`${params.edit ?? ""}:${params.provider ?? ""}`}
          providers={options}
          initial={draft}
        />
      </SectionCard>

      <SectionCard title="Budgets">
        {status.budgets.length === 0 ? (
          <EmptyState icon={Wallet} title="No budgets yet">
            Adding a provider key sets its free tier as a budget; set an overall cap above.
          </EmptyState>
        ) : (
          <BudgetTable budgets={status.budgets} now={now} />
        )}
      </SectionCard>

      <OperatorQuotas quotas={status.operator_quotas} now={now} />

      <SearchContributions contributions={contributions} />

      <PriceTable prices={listPrices({ ctx })} />

      <div className="grid gap-4 lg:grid-cols-2">
        <SectionCard
          title="Provider requests, last 30 days"
          description="What the budgets count, per UTC day."
        >
          {requests.series.length === 0 ? (
            <EmptyState icon={LineChart} title="No provider requests yet" />
          ) : (
            <Chart
              kind="bar"
              label="Provider requests per day by provider, last 30 days"
              data={requests.rows}
              category="date"
              categoryFormat="day"
              format="count"
              series={requests.series}
            />
          )}
        </SectionCard>
        <SectionCard title="Spend, last 30 days" description={spendCaption(history.days, dailyCap?.limit)}>
          <SpendChart days={history.days} dailyCapUsd={dailyCap?.limit} />
        </SectionCard>
      </div>

      <SectionCard title="Alerts" description="Soft limits reached and hard limits reached, newest first.">
        {status.alerts.length === 0 ? (
          <EmptyState icon={BellRing} title="No alerts">
            A budget reaching its soft or its hard limit shows up here once per period.
          </EmptyState>
        ) : (
          <ul className="divide-y">
            {status.alerts.map((alert) => (
              <li
                key={`${alert.budget_id}:${alert.kind}:${alert.period}`}
                className="flex flex-wrap items-center gap-2 py-2 text-sm"
              >
                <Badge tone={alert.kind === "exhausted" ? "danger" : "warning"}>
                  {alert.kind === "exhausted" ? "hard limit reached" : "soft limit reached"}
                </Badge>
                <span className="font-medium">{labelOf(alert.budget_id)}</span>
                <span className="text-muted-foreground">
                  {formatDateTime(alert.at)} · period {alert.period.replace(/^\w+:/, "")}
                </span>
              </li>
            ))}
          </ul>
        )}
      </SectionCard>
    </div>
  );
}
