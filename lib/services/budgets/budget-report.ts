import { desc, eq, like, or } from "drizzle-orm";
import { budgetAlerts, budgets, usageCounters } from "@/lib/db/schema";
import { OPERATOR_SCOPE, operatorQuotaStatus } from "@/lib/pipeline/budgets/operator-quota";
import { periodKey, periodResetsAt } from "@/lib/pipeline/budgets/periods";
import { displayAmount, microsToUsd } from "@/lib/pipeline/budgets/units";
import type { TenantContext } from "@/lib/pipeline/context";
import { providerCatalog } from "@/lib/pipeline/providers/catalog";
import { priceWithOverrides } from "@/lib/pipeline/providers/prices";
import { freeTierMetric, freeTierUsage } from "./free-tier";

interface BudgetScope {
  provider: string;
  metric: "requests" | "usd";
  period: "day" | "month" | "lifetime";
}

/** How a budget is named to people and models: "brave · requests · month", "all providers · usd · day". */
const budgetName = ({ provider, metric, period }: BudgetScope): string =>
  `${provider === "*" ? "all providers" : provider} · ${metric} · ${period}`;

/**
 * Every budget's record with used / remaining and when it resets, each operator quota likewise, per
 * provider the requests and spend of today, this month and overall with its free tier, and the recent
 * alerts. No scope check: the verbs budgetStatus and listBudgets decide who sees which part.
 */
export async function budgetReport(ctx: TenantContext) {
  await ctx.usage.flush(); // this instance's settled usage, before it is read
  const at = ctx.now();
  const today = periodKey("day", at);
  const month = periodKey("month", at);
  const { rows, counters, alerts } = await ctx.db.withTenant(ctx.tenantId, async (tx) => ({
    rows: await tx.select().from(budgets).orderBy(budgets.provider, budgets.metric, budgets.period),
    counters: await tx
      .select()
      .from(usageCounters)
      .where(
        or(
          eq(usageCounters.periodKey, today),
          like(usageCounters.periodKey, "month:%"),
          eq(usageCounters.periodKey, "lifetime"),
        ),
      ),
    alerts: await tx.select().from(budgetAlerts).orderBy(desc(budgetAlerts.createdAt)).limit(50),
  }));
  const used = (provider: string, metric: "requests" | "usd", key: string) =>
    counters.find((c) => c.provider === provider && c.metric === metric && c.periodKey === key)?.used ?? 0;

  const budgetList = rows.map((b) => {
    const key = periodKey(b.period, at, b.anchorDay);
    const spent = used(b.provider, b.metric, key);
    return {
      id: b.id,
      name: budgetName(b),
      provider: b.provider,
      metric: b.metric,
      period: b.period,
      /** The day of the month a monthly period starts on; null for other periods. */
      anchor_day: b.period === "month" ? b.anchorDay : null,
      limit: displayAmount(b.metric, b.hardLimit),
      soft: b.softLimit === null ? null : displayAmount(b.metric, b.softLimit),
      used: displayAmount(b.metric, spent),
      remaining: displayAmount(b.metric, Math.max(b.hardLimit - spent, 0)),
      soft_exceeded: b.softLimit !== null && spent >= b.softLimit,
      resets_at: periodResetsAt(b.period, at, b.anchorDay)?.toISOString() ?? null,
    };
  });

  // An alert goes with its budget (deleted with it), so its name is always here.
  const names = new Map(budgetList.map((b) => [b.id, b.name]));
  const catalog = providerCatalog();
  const active = new Set([...counters.map((c) => c.provider), ...rows.map((b) => b.provider)]);
  active.delete("*");
  active.delete(OPERATOR_SCOPE);
  const providers = [...active].sort().map((id) => {
    const listed = catalog.get(id)?.price;
    const freeTier = listed ? priceWithOverrides(listed, ctx.env).free_tier : null;
    return {
      provider: id,
      requests: {
        today: used(id, "requests", today),
        month: used(id, "requests", month),
        lifetime: used(id, "requests", "lifetime"),
      },
      usd: { today: microsToUsd(used(id, "usd", today)), month: microsToUsd(used(id, "usd", month)) },
      free_tier:
        freeTier &&
        freeTierUsage(freeTier, used(id, freeTierMetric(freeTier), periodKey(freeTier.period, at))),
    };
  });

  return {
    budgets: budgetList,
    operator_quotas: operatorQuotaStatus(ctx.env, at, (metric, key) => used(OPERATOR_SCOPE, metric, key)),
    providers,
    alerts: alerts.map((a) => ({
      budget_id: a.budgetId,
      budget: names.get(a.budgetId) ?? a.budgetId,
      kind: a.kind,
      period: a.periodKey,
      at: a.createdAt.toISOString(),
    })),
  };
}
