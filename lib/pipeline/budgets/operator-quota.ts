/**
 * Operator quotas (SEARCHMUX_OPERATOR_QUOTA_*, see lib/config.ts): how much of the operator each workspace
 * may use per UTC day and month — the calls made with the operator's provider keys or its model. They are
 * counted on counters of the reserved scope OPERATOR_SCOPE and admitted like budgets, in the same
 * conditional update (admission.ts), so concurrent calls can never overshoot them. A tenant's own key and
 * keyless providers use nothing of the operator's: they are not counted (the operator's model aside).
 */
import { type OperatorQuota, tenantLimits } from "@/lib/config";
import type { ProviderRegistration, ResolvedProvider } from "@/lib/engine/shared/types";
import type { Env, ExhaustedBudget } from "@/lib/pipeline/capabilities";
import { operatorKey } from "@/lib/pipeline/providers/operator-providers";
import { operatorLlm } from "@/lib/providers/answer/openai-compatible";
import type { Limit } from "./limits";
import { periodKey, periodResetsAt } from "./periods";
import { displayAmount, usdToMicros } from "./units";

/** The `provider` of the operator's usage counters: never a provider id (ids are lowercase letters, digits, - and _). */
export const OPERATOR_SCOPE = "@operator";

/**
 * `llm` is always the operator's endpoint and model, whoever's key goes with it: a key the tenant stores
 * for it (which a server that needs none ignores) must not take its calls out of the quota.
 */
export const isOperatorModel = (providerId: string) => providerId === operatorLlm.id;

/** Whether a provider attempt uses the operator's key or the operator's model. */
export function drawsOnOperator(
  entry: ResolvedProvider<ProviderRegistration> | undefined,
  env: Env,
): boolean {
  if (!entry) return false;
  if (isOperatorModel(entry.provider.id)) return true;
  return entry.apiKey !== undefined && entry.apiKey === operatorKey(entry.provider.keyEnv, env);
}

/** A quota's limit in counter units: requests, or micro-dollars. */
const stored = (quota: OperatorQuota) => (quota.metric === "usd" ? usdToMicros(quota.limit) : quota.limit);

/** The quotas in effect, as limits on the operator counters (UTC days, months from the 1st). */
export function operatorQuotaLimits(env: Env): Limit[] {
  return tenantLimits(env).operatorQuotas.map((quota) => ({
    budgetId: null,
    provider: OPERATOR_SCOPE,
    metric: quota.metric,
    period: quota.period,
    hardLimit: stored(quota),
    softLimit: null,
    anchorDay: 1,
  }));
}

/** Why a refused call was refused: a budget of the tenant's own if one is exhausted, else the operator's quota. */
export function refusalReason(
  exhausted: readonly ExhaustedBudget[],
): "budget_exhausted" | "operator_quota_exhausted" {
  return exhausted.some((b) => b.kind === "budget") ? "budget_exhausted" : "operator_quota_exhausted";
}

/** Each quota in effect with this workspace's use of it and when it resets, for budget_status. */
export function operatorQuotaStatus(
  env: Env,
  at: Date,
  used: (metric: "requests" | "usd", periodKey: string) => number,
) {
  return tenantLimits(env).operatorQuotas.map((quota) => {
    const spent = used(quota.metric, periodKey(quota.period, at));
    return {
      metric: quota.metric,
      period: quota.period,
      limit: quota.limit,
      used: displayAmount(quota.metric, spent),
      remaining: displayAmount(quota.metric, Math.max(stored(quota) - spent, 0)),
      // Days and months always end.
      resets_at: (periodResetsAt(quota.period, at) as Date).toISOString(),
    };
  });
}
