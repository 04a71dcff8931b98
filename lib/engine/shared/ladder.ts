/** The cost ladder shared by engines that call providers one after another (search budget mode, fetch). */
import { priceOf } from "./price";
import type { ProviderRegistration, ResolvedProvider } from "./types";

/**
 * Cheapest first, from the registrations only: keyless providers (and those whose key is optional),
 * then keyed providers with a free tier, then paid ones; within each group by cost per request, then
 * in the caller's order. Whether a free tier is used up is the admission hook's business: a refused
 * provider is skipped, costing nothing.
 */
export function ladderOrder<E extends ResolvedProvider<ProviderRegistration>>(entries: readonly E[]): E[] {
  const group = (entry: E) =>
    entry.provider.keyEnv.length === 0 || entry.provider.keyOptional === true
      ? 0
      : priceOf(entry).free_tier !== null
        ? 1
        : 2;
  // Array.prototype.sort is stable: equal entries keep the caller's order.
  return [...entries].sort(
    (a, b) => group(a) - group(b) || priceOf(a).usd_per_request - priceOf(b).usd_per_request,
  );
}
