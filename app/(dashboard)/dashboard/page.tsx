import { Activity, CalendarDays, DatabaseZap, DollarSign, Gauge, Wallet } from "lucide-react";
import Link from "next/link";
import { OperatorQuotas } from "@/components/dashboard/budgets/operator-quotas";
import { Chart } from "@/components/dashboard/charts/chart";
import { SpendChart } from "@/components/dashboard/charts/spend-chart";
import { FirstRunChecklist } from "@/components/dashboard/first-run-checklist";
import { PageHeader } from "@/components/dashboard/page-header";
import {
  countColumn,
  durationColumn,
  ProviderHealthTable,
  successColumn,
} from "@/components/dashboard/provider-health-table";
import { ProviderLatencyChart } from "@/components/dashboard/provider-latency-chart";
import { ProviderStatusBadge } from "@/components/dashboard/provider-status-badge";
import { SectionCard } from "@/components/dashboard/section-card";
import { StatCard } from "@/components/dashboard/stat-card";
import type { Column } from "@/components/ui/data-table";
import { EmptyState } from "@/components/ui/empty-state";
import { budgetShortLabel, spendCapHint } from "@/lib/dashboard/budgets";
import { firstRunSteps } from "@/lib/dashboard/checklist";
import { formatCount, formatPercent, formatUsd } from "@/lib/dashboard/format";
import { dashboardSession } from "@/lib/dashboard/session";
import { summarizeUsage } from "@/lib/dashboard/usage-summary";
import { budgetStatus } from "@/lib/services/budgets/budget-status";
import { providerStatus } from "@/lib/services/providers/provider-status";
import { getTenant } from "@/lib/services/tenants/get-tenant";
import { listTokens } from "@/lib/services/tokens/list-tokens";
import { usageHistory } from "@/lib/services/usage/usage-history";
import { toolsOfKinds } from "@/lib/tools/provider-kinds";
import { plural } from "@/lib/wording";

/** Enough days to cover the whole current month as well as the 30-day charts. */
const HISTORY_DAYS = 31;

type ProviderRow = Awaited<ReturnType<typeof providerStatus>>["providers"][number];

const HEALTH_COLUMNS: Column<ProviderRow>[] = [
  {
    header: "Tools",
    foldBelow: "4xl",
    className: "text-muted-foreground",
    cell: (p) => toolsOfKinds(p.kinds).join(", "),
  },
  { header: "Status", cell: (p) => <ProviderStatusBadge state={p.status} /> },
  countColumn("Calls", (p) => p.health?.calls ?? 0),
  successColumn((p) => p.health?.success_rate ?? null),
  durationColumn("p50", (p) => p.health?.p50_ms ?? null),
  durationColumn("p95", (p) => p.health?.p95_ms ?? null),
];

export default async function OverviewPage() {
  const { session, ctx, canAdminister } = await dashboardSession();
  const [tenant, history, budgets, status, tokens] = await Promise.all([
    getTenant({ ctx }),
    usageHistory({ ctx, input: { days: HISTORY_DAYS } }),
    budgetStatus({ ctx }),
    providerStatus({ ctx }),
    canAdminister ? listTokens({ ctx }) : null,
  ]);
  const now = ctx.now();
  const usage = summarizeUsage(history.days, now);
  const lastThirty = history.days.slice(-30);
  const active = status.providers.filter((p) => p.available);
  const measured = active.flatMap((p) => (p.health ? [{ ...p.health, name: p.name }] : []));
  const steps = firstRunSteps(
    tokens,
    status.providers.some((p) => p.key_source === "tenant"),
    now,
  );

  return (
    <div className="space-y-6">
      <PageHeader
        title={tenant.name}
        description={
          <p>
            Workspace <code className="font-mono">{tenant.id}</code> · your role: {session.role}
          </p>
        }
      />
      {steps.every((step) => step.done) ? null : <FirstRunChecklist steps={steps} />}

      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <StatCard
          icon={Activity}
          label="Tool calls today"
          value={formatCount(usage.callsToday)}
          hint={
            usage.toolsToday.map((t) => `${formatCount(t.calls)} ${t.tool}`).join(" · ") ||
            "Every tool, UTC day"
          }
        />
        <StatCard
          icon={CalendarDays}
          label="Tool calls this month"
          value={formatCount(usage.callsThisMonth)}
          hint={`${plural(usage.requestsThisMonth, "provider request")} (what budgets count)`}
        />
        <StatCard
          icon={DatabaseZap}
          label="Cache hit ratio"
          value={usage.cacheHitRatio === null ? "—" : formatPercent(usage.cacheHitRatio)}
          hint="Calls answered from cache this month"
        />
        <StatCard
          icon={DollarSign}
          label="Spend this month"
          value={formatUsd(usage.usdThisMonth)}
          hint={spendCapHint(budgets.budgets)}
        />
      </div>

      <OperatorQuotas quotas={budgets.operator_quotas} now={now} />

      <div className="grid gap-4 lg:grid-cols-2">
        <SectionCard title="Tool calls, last 30 days" description="Answered by providers or from the cache.">
          <Chart
            kind="bar"
            label="Tool calls per day, last 30 days"
            data={lastThirty.map((day) => ({
              date: day.date,
              fromProviders: day.calls - day.cache_hits,
              fromCache: day.cache_hits,
            }))}
            category="date"
            categoryFormat="day"
            format="count"
            series={[
              { key: "fromProviders", label: "From providers", color: 1, stack: "calls" },
              { key: "fromCache", label: "From cache", color: 4, stack: "calls" },
            ]}
          />
        </SectionCard>
        <SectionCard title="Spend, last 30 days" description="What provider calls cost per UTC day.">
          <SpendChart days={lastThirty} />
        </SectionCard>
        <SectionCard
          title="Spend vs budgets"
          description="How much of each budget its current period has used."
        >
          {budgets.budgets.length === 0 ? (
            <EmptyState icon={Wallet} title="No budgets yet">
              Without a budget nothing stops a runaway agent.{" "}
              {canAdminister ? (
                <Link href="/dashboard/budgets" className="text-primary hover:underline">
                  Set one
                </Link>
              ) : (
                "An admin can set one."
              )}
            </EmptyState>
          ) : (
            <Chart
              kind="bar"
              horizontal
              label="Share of each budget used"
              data={budgets.budgets.map((b) => {
                const used = b.limit === 0 ? 1 : Math.min(b.used / b.limit, 1);
                return { budget: budgetShortLabel(b), used, left: 1 - used };
              })}
              category="budget"
              format="percent"
              height={Math.max(160, budgets.budgets.length * 48)}
              series={[
                { key: "used", label: "Used", color: 3, stack: "budget" },
                { key: "left", label: "Left", color: 2, stack: "budget" },
              ]}
            />
          )}
        </SectionCard>
        <SectionCard
          title="Provider latency, last 24 hours"
          description="Median (p50) and slow-call (p95) response times."
        >
          <ProviderLatencyChart
            label="Provider latency p50 and p95 in milliseconds, last 24 hours"
            providers={measured}
            empty={
              <EmptyState icon={Gauge} title="No provider calls yet">
                Run a search in the{" "}
                <Link href="/dashboard/playground" className="text-primary hover:underline">
                  playground
                </Link>{" "}
                to see how fast each provider answers.
              </EmptyState>
            }
          />
        </SectionCard>
      </div>

      <SectionCard
        title="Provider health"
        description={`Available to this workspace: ${plural(active.length, "provider")}. Success rates cover the last 24 hours.`}
      >
        <ProviderHealthTable rows={active} columns={HEALTH_COLUMNS} />
      </SectionCard>
    </div>
  );
}
