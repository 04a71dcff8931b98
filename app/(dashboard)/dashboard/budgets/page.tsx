import { BellRing, LineChart, Pencil, Trash2, Wallet } from "lucide-react";
import Link from "next/link";
import {
  type BudgetDraft,
  BudgetForm,
  type BudgetProviderOption,
} from "@/components/dashboard/budgets/budget-form";
import { OperatorQuotas } from "@/components/dashboard/budgets/operator-quotas";
import { formatAmount as amount, UsageMeter } from "@/components/dashboard/budgets/usage-meter";
import { ChartCard } from "@/components/dashboard/chart-card";
import { Chart } from "@/components/dashboard/charts/chart";
import { PageHeader } from "@/components/dashboard/page-header";
import { RestrictedNotice } from "@/components/dashboard/restricted-notice";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { ConfirmAction } from "@/components/ui/confirm-action";
import { EmptyState } from "@/components/ui/empty-state";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { deleteBudgetAction } from "@/lib/dashboard/actions/budgets";
import { budgetLabel } from "@/lib/dashboard/budgets";
import { formatDateTime, formatRelative } from "@/lib/dashboard/format";
import { dashboardSession } from "@/lib/dashboard/session";
import { requestsByProvider } from "@/lib/dashboard/usage-series";
import { budgetStatus } from "@/lib/services/budgets/budget-status";
import { listBudgets } from "@/lib/services/budgets/list-budgets";
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
  if (params.provider && tier) {
    return {
      provider: params.provider,
      metric: "requests",
      period: tier.period,
      limit: String(tier.requests),
      soft: String(Math.floor(tier.requests * 0.8)),
    };
  }
  return { provider: "*", metric: "usd", period: "month", limit: "", soft: "" };
}

function BudgetTable({ budgets, now }: { budgets: readonly Budget[]; now: Date }) {
  return (
    <Table>
      <TableHeader>
        <TableRow>
          <TableHead>Budget</TableHead>
          <TableHead className="min-w-48">Used</TableHead>
          <TableHead className="text-right">Remaining</TableHead>
          <TableHead>Soft limit</TableHead>
          <TableHead>Resets</TableHead>
          <TableHead className="text-right">
            <span className="sr-only">Actions</span>
          </TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {budgets.map((b) => {
          const label = budgetLabel(b);
          return (
            <TableRow key={b.id} data-testid="budget-row">
              <TableCell className="font-medium">{label}</TableCell>
              <TableCell>
                <UsageMeter
                  label={label}
                  metric={b.metric}
                  used={b.used}
                  limit={b.limit}
                  warning={b.soft_exceeded}
                />
              </TableCell>
              <TableCell className="text-right tabular-nums">{amount(b.metric, b.remaining)}</TableCell>
              <TableCell>
                {b.soft === null ? (
                  <span className="text-muted-foreground">—</span>
                ) : (
                  <span className="flex items-center gap-1.5 tabular-nums">
                    {amount(b.metric, b.soft)}
                    {b.soft_exceeded ? <Badge tone="warning">reached</Badge> : null}
                  </span>
                )}
              </TableCell>
              <TableCell className="whitespace-nowrap">
                {b.resets_at ? (
                  <span title={formatDateTime(b.resets_at)}>
                    {formatRelative(b.resets_at, now)}
                    <span className="block text-xs text-muted-foreground">{formatDateTime(b.resets_at)}</span>
                  </span>
                ) : (
                  <span className="text-muted-foreground">never</span>
                )}
              </TableCell>
              <TableCell>
                <div className="flex justify-end gap-1">
                  <Button variant="ghost" size="sm" asChild>
                    <Link href={`?edit=${b.id}#budget-form`} aria-label={`Edit ${label}`}>
                      <Pencil aria-hidden /> Edit
                    </Link>
                  </Button>
                  <ConfirmAction
                    trigger={
                      <Button
                        variant="ghost"
                        size="sm"
                        className="text-destructive"
                        aria-label={`Delete ${label}`}
                      >
                        <Trash2 aria-hidden /> Delete
                      </Button>
                    }
                    title={`Delete the budget “${label}”?`}
                    description="Calls are no longer limited by it. Usage so far is kept."
                    confirmLabel="Delete budget"
                    action={deleteBudgetAction.bind(null, b.id)}
                  />
                </div>
              </TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}

export default async function BudgetsPage({ searchParams }: { searchParams: Params }) {
  const params = await searchParams;
  const { ctx, canAdminister } = await dashboardSession();
  if (!canAdminister) {
    const status = await budgetStatus({ ctx });
    return (
      <div className="space-y-6">
        <PageHeader title="Budgets" />
        <RestrictedNotice title="Budgets are managed by admins">
          Workspace owners and admins set the limits that keep provider spend in check. The overview shows how
          much of each budget is used.
        </RestrictedNotice>
        <OperatorQuotas quotas={status.operator_quotas} now={ctx.now()} />
      </div>
    );
  }
  const [status, providers, history] = await Promise.all([
    listBudgets({ ctx }),
    providerStatus({ ctx }),
    usageHistory({ ctx, input: { days: 30 } }),
  ]);
  const now = ctx.now();
  const options: BudgetProviderOption[] = [
    { value: "*", label: "All providers", freeTier: null },
    ...providers.providers
      .map((p) => ({
        value: p.provider,
        label: p.name,
        freeTier: p.free_tier && { requests: p.free_tier.requests, period: p.free_tier.period },
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
      <Card>
        <CardHeader>
          <CardTitle>{params.edit ? "Edit budget" : "Set a budget"}</CardTitle>
          <CardDescription>
            One budget per provider, metric and period; saving the same three again replaces it.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <BudgetForm
            key={`${params.edit ?? ""}:${params.provider ?? ""}`}
            providers={options}
            initial={draft}
          />
        </CardContent>
      </Card>

      <Card>
        <CardHeader>
          <CardTitle>Budgets</CardTitle>
        </CardHeader>
        <CardContent>
          {status.budgets.length === 0 ? (
            <EmptyState icon={Wallet} title="No budgets yet">
              Adding a provider key sets its free tier as a budget; set an overall cap above.
            </EmptyState>
          ) : (
            <BudgetTable budgets={status.budgets} now={now} />
          )}
        </CardContent>
      </Card>

      <OperatorQuotas quotas={status.operator_quotas} now={now} />

      <div className="grid gap-4 lg:grid-cols-2">
        <ChartCard title="Provider requests, last 30 days" description="What the budgets count, per UTC day.">
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
        </ChartCard>
        <ChartCard
          title="Spend, last 30 days"
          description={
            dailyCap
              ? "The dashed line is the daily cap across all providers."
              : "Set a daily USD budget to see it here."
          }
        >
          <Chart
            kind="area"
            label="Spend per day in US dollars, last 30 days"
            data={history.days.map((day) => ({ date: day.date, usd: day.usd }))}
            category="date"
            categoryFormat="day"
            format="usd"
            series={[{ key: "usd", label: "Spend", color: 2 }]}
            reference={dailyCap && { value: dailyCap.limit, label: "daily cap" }}
          />
        </ChartCard>
      </div>

      <Card>
        <CardHeader>
          <CardTitle>Alerts</CardTitle>
          <CardDescription>Soft limits reached and budgets exhausted, newest first.</CardDescription>
        </CardHeader>
        <CardContent>
          {status.alerts.length === 0 ? (
            <EmptyState icon={BellRing} title="No alerts">
              A budget's soft limit or exhaustion shows up here once per period.
            </EmptyState>
          ) : (
            <ul className="divide-y">
              {status.alerts.map((alert) => (
                <li
                  key={`${alert.budget_id}:${alert.kind}:${alert.period}`}
                  className="flex flex-wrap items-center gap-2 py-2 text-sm"
                >
                  <Badge tone={alert.kind === "exhausted" ? "danger" : "warning"}>
                    {alert.kind === "exhausted" ? "exhausted" : "soft limit"}
                  </Badge>
                  <span className="font-medium">{labelOf(alert.budget_id)}</span>
                  <span className="text-muted-foreground">
                    {formatDateTime(alert.at)} · period {alert.period.replace(/^\w+:/, "")}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
