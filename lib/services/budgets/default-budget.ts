/**
 * Budgets the product sets by itself, in the caller's transaction with their audit row (`budget.default`):
 * a new workspace's monthly spend cap across all providers, and a provider's free tier with the
 * workspace's first key for it. Either is an ordinary budget afterwards, which admins change or delete.
 */
import { tenantLimits } from "@/lib/config";
import type { Tx } from "@/lib/db";
import { budgets } from "@/lib/db/schema";
import { writeAudit } from "@/lib/pipeline/audit";
import { usdToMicros } from "@/lib/pipeline/budgets/units";
import type { Env } from "@/lib/pipeline/capabilities";
import type { Actor } from "@/lib/pipeline/context";

interface DefaultBudget {
  provider: string;
  metric: "requests" | "usd";
  period: "day" | "month" | "lifetime";
  /** Requests, or US dollars. */
  limit: number;
  soft?: number;
  /** Why it was set, for the audit log. */
  reason: string;
}

/** The share of the default spend cap whose crossing raises the soft-limit alert. */
const SPEND_CAP_SOFT_SHARE = 0.8;

/**
 * The spend cap a new workspace starts with (SEARCHMUX_DEFAULT_MONTHLY_CAP_USD, lib/config.ts): all
 * providers, US dollars, per calendar month, with a soft limit at 80 %; none when the operator set `unlimited`.
 */
export function defaultSpendCap(env: Env): DefaultBudget | null {
  const cap = tenantLimits(env).defaultMonthlyCapUsd;
  if (cap === null) return null;
  return {
    provider: "*",
    metric: "usd",
    period: "month",
    limit: cap,
    soft: Math.round(cap * SPEND_CAP_SOFT_SHARE * 100) / 100,
    reason: "default spend cap",
  };
}

/** Inserts `budget` unless the workspace has one for its provider, metric and period. */
export async function insertDefaultBudget(
  tx: Tx,
  { tenantId, actor }: { tenantId: string; actor: Actor },
  budget: DefaultBudget,
): Promise<void> {
  const stored = (value: number) => (budget.metric === "usd" ? usdToMicros(value) : value);
  const [row] = await tx
    .insert(budgets)
    .values({
      tenantId,
      provider: budget.provider,
      metric: budget.metric,
      period: budget.period,
      hardLimit: stored(budget.limit),
      softLimit: budget.soft === undefined ? null : stored(budget.soft),
    })
    .onConflictDoNothing()
    .returning({ id: budgets.id });
  if (!row) return;
  await writeAudit(tx, {
    tenantId,
    actor,
    action: "budget.default",
    targetType: "budget",
    targetId: row.id,
    details: {
      provider: budget.provider,
      metric: budget.metric,
      period: budget.period,
      limit: budget.limit,
      soft: budget.soft ?? null,
      reason: budget.reason,
    },
  });
}
