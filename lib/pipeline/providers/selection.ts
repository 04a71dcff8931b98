import type { ProviderFailure, ProviderRegistration, ResolvedProvider } from "@/lib/engine/shared/types";
import type { ExhaustedBudget } from "@/lib/pipeline/capabilities";
import { ServiceError } from "@/lib/pipeline/errors";

/**
 * The entries a call uses: all available ones, or the caller's explicit subset. Unknown ids and known
 * but unavailable ones (no key) are input errors, so a caller never silently searches fewer providers.
 */
export function selectProviders<E extends ResolvedProvider<ProviderRegistration>>(
  wanted: readonly string[] | undefined,
  known: ReadonlySet<string>,
  available: readonly E[],
  tool = "search",
): E[] {
  const unknown = wanted?.filter((id) => !known.has(id)) ?? [];
  if (unknown.length > 0)
    throw new ServiceError("invalid_input", `unknown providers: ${unknown.join(", ")}`, { unknown });
  const missing = wanted?.filter((id) => !available.some((e) => e.provider.id === id)) ?? [];
  if (missing.length > 0) {
    throw new ServiceError("invalid_input", `not available without a key: ${missing.join(", ")}`, {
      missing,
    });
  }
  const entries = wanted ? available.filter((e) => wanted.includes(e.provider.id)) : [...available];
  if (entries.length === 0)
    throw new ServiceError("no_provider_configured", `no ${tool} provider is available`);
  return entries;
}

function describeExhausted(budgets: ExhaustedBudget[]): string {
  const limits = budgets.map((b) => {
    const reset = b.resetsAt ? `resets ${b.resetsAt.toISOString()}` : "lifetime budget";
    if (b.kind === "operator_quota") {
      return `the operator's keys: ${b.metric} per ${b.period} quota reached (${reset}; calls with your own provider keys are not counted)`;
    }
    return `${b.provider === "*" ? "all providers" : b.provider}: ${b.metric} per ${b.period} limit reached (${reset})`;
  });
  // Every provider a shared limit (`*`, an operator quota) refused reports it: name it once.
  return [...new Set(limits)].join("; ");
}

const REFUSED: ReadonlySet<string> = new Set(["budget_exhausted", "operator_quota_exhausted"]);

/**
 * A call where no provider produced anything is an error: budgets or operator quotas exhausted
 * (402-class) when that is why, otherwise every provider failed (502), with each provider's reason.
 */
export function throwIfNothingSucceeded(
  result: {
    succeeded: number;
    providers_failed: ReadonlyArray<Pick<ProviderFailure, "provider"> & { reason: string }>;
  },
  exhausted: readonly ExhaustedBudget[] = [],
): void {
  if (result.succeeded > 0) return;
  if (exhausted.length > 0 && result.providers_failed.every((f) => REFUSED.has(f.reason))) {
    const what = exhausted.every((b) => b.kind === "operator_quota") ? "operator quota" : "budget";
    throw new ServiceError("budget_exhausted", `${what} exhausted — ${describeExhausted([...exhausted])}`, {
      exhausted,
    });
  }
  const reasons = result.providers_failed.map((f) => `${f.provider}: ${f.reason}`).join("; ");
  throw new ServiceError(
    "all_providers_failed",
    `every provider failed (${reasons})`,
    result.providers_failed,
  );
}
