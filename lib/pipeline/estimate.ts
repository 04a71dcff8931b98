/**
 * Cost before a call (`estimate: true` on every tool): which providers a call would ask and the most it
 * could be charged, worked out from the same selection the call makes (`askedProviders`: the tenant's
 * providers, the caller's subset, less keys a call would skip now) and the providers' prices. Nothing is
 * called, reserved, charged or traced. The figure is a ceiling: every provider that might be asked is
 * counted as asked and billed (a fan-out mode that stops early, a fetch waterfall's first step that
 * succeeds, a cached result, or a budget that refuses all cost less).
 */
import { priceOf, requestCostMicros, resultsBilledAtMost } from "@/lib/engine/shared/price";
import type { ProviderRegistration, ResolvedProvider } from "@/lib/engine/shared/types";
import { microsToUsd } from "./budgets/units";
import type { TenantContext } from "./context";
import { breakerKey } from "./health/circuit-breaker";
import { keyId, readKeyStates } from "./rate-limit/provider-pause";

/** What a call would ask, and the most it could cost, in micro-dollars (summed without rounding drift). */
export interface CallEstimate {
  /** Provider ids, each once, in the order they would be asked. */
  providers: string[];
  maxCostMicros: number;
}

/** The estimate as the tools answer it. */
export const publicEstimate = ({ providers, maxCostMicros }: CallEstimate) => ({
  estimate: { providers: [...providers], max_cost_usd: microsToUsd(maxCostMicros) },
});

export const NO_CALLS: CallEstimate = { providers: [], maxCostMicros: 0 };

/**
 * Each of `entries` asked `times` times (a page fetched per URL, a search per sub-query), for `results`
 * results where a provider prices by the count: what the call's admission reserves (lib/engine/shared/price.ts).
 */
export function estimateOf(
  entries: readonly ResolvedProvider<ProviderRegistration>[],
  { times = 1, results }: { times?: number; results?: number } = {},
): CallEstimate {
  return {
    providers: entries.map((e) => e.provider.id),
    maxCostMicros:
      times *
      entries.reduce((sum, e) => {
        const billed = results === undefined ? undefined : resultsBilledAtMost(e.provider, results);
        return sum + requestCostMicros(priceOf(e), billed);
      }, 0),
  };
}

/** Several parts of one call together: their providers each once, their costs added. */
export function addEstimates(...parts: readonly CallEstimate[]): CallEstimate {
  return {
    providers: [...new Set(parts.flatMap((part) => part.providers))],
    maxCostMicros: parts.reduce((sum, part) => sum + part.maxCostMicros, 0),
  };
}

/** An estimate `times` over (the same call made that often). */
export const repeated = (estimate: CallEstimate, times: number): CallEstimate => ({
  providers: times > 0 ? estimate.providers : [],
  maxCostMicros: estimate.maxCostMicros * times,
});

/**
 * Of `entries`, those a call would ask now: not a key paused for its rate limit or its quota
 * (provider-pause.ts) nor one behind this tenant's open breaker.
 */
export async function askable<E extends ResolvedProvider<ProviderRegistration>>(
  ctx: TenantContext,
  entries: readonly E[],
): Promise<E[]> {
  const ids = entries.map((e) => keyId(e.provider.id, e.apiKey));
  const states = await readKeyStates(ctx.kv, [...new Set(ids)]);
  const now = Date.now();
  return entries.filter((entry, i) => {
    const state = states.get(ids[i] as string) ?? {};
    const paused = [state.pausedUntil, state.quotaUntil].some((until) => until !== undefined && until > now);
    const breaker = ctx.breakers.state(breakerKey(entry.provider.id, entry.apiKey), ctx.tenantId);
    return !paused && breaker !== "open";
  });
}
