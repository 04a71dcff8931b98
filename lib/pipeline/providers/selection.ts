import type { ProviderFailure, ProviderRegistration, ResolvedProvider } from "@/lib/engine/shared/types";
import type { ExhaustedBudget } from "@/lib/pipeline/capabilities";
import { ServiceError } from "@/lib/pipeline/errors";
import { pauseSecondsAfter429, quotaPauseSeconds } from "@/lib/pipeline/rate-limit/provider-pause";

/**
 * Refuses provider ids the tool does not know, naming the ones it does: a misspelt name is fixed at once.
 * `tool` names the tool in the message (web_search, answer, …).
 */
export function assertKnownProviders(
  wanted: readonly string[] | undefined,
  known: ReadonlySet<string>,
  tool: string,
): void {
  const unknown = wanted?.filter((id) => !known.has(id)) ?? [];
  if (unknown.length === 0) return;
  const valid = [...known].sort();
  throw new ServiceError(
    "invalid_input",
    `providers: unknown to ${tool}: ${unknown.join(", ")}; its providers are ${valid.join(", ")}`,
    { unknown, valid },
  );
}

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
  assertKnownProviders(wanted, known, tool);
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

function describeExhausted(budgets: readonly ExhaustedBudget[]): string {
  return budgets
    .map((b) => {
      const reset = b.resetsAt ? `resets ${b.resetsAt.toISOString()}` : "lifetime budget";
      if (b.kind === "operator_quota") {
        return `the operator's keys: ${b.metric} per ${b.period} quota reached (${reset}; calls with your own provider keys are not counted)`;
      }
      return `${b.provider === "*" ? "all providers" : b.provider}: ${b.metric} per ${b.period} limit reached (${reset})`;
    })
    .join("; ");
}

/** Each budget once: every provider a shared limit (`*`, an operator quota) refused reports it. */
function distinctBudgets(budgets: readonly ExhaustedBudget[]): ExhaustedBudget[] {
  const seen = new Map<string, ExhaustedBudget>();
  for (const b of budgets) seen.set(`${b.kind}|${b.budgetId}|${b.provider}|${b.metric}|${b.period}`, b);
  return [...seen.values()];
}

const REFUSED: ReadonlySet<string> = new Set(["budget_exhausted", "operator_quota_exhausted"]);

type Failures = ReadonlyArray<Pick<ProviderFailure, "provider" | "retryAfter"> & { reason: string }>;

/** Failures that pass with time: the key's rate limit or quota, each with when it may be tried again. */
const WAITING: ReadonlySet<string> = new Set(["rate_limited", "quota_exhausted"]);

/** Seconds until a waiting failure's key may be tried again: what it said, else the pause its key got. */
const retryAfterOf = (failure: Failures[number]) =>
  failure.retryAfter ??
  (failure.reason === "quota_exhausted" ? quotaPauseSeconds(undefined) : pauseSecondsAfter429(undefined));

const listReasons = (failures: Failures) => failures.map((f) => `${f.provider}: ${f.reason}`).join("; ");

/**
 * A call where no provider produced anything is an error. When budgets or operator quotas refused any of
 * its providers it is `budget_exhausted` (402), naming each exhausted budget once and when it resets, even
 * when the other providers failed for other reasons: asking again before the reset buys nothing from the
 * refused ones, and a 502 invites a retry. When every provider was rate limited or out of quota (skipped for
 * its key's pause or send slot, or refused so by the provider) it is `rate_limited` (429) with the soonest
 * time one may be asked again (Retry-After): nothing failed that waiting does not fix. Otherwise every
 * provider failed (502), with each one's reason.
 */
export function throwIfNothingSucceeded(
  result: { succeeded: number; providers_failed: Failures },
  exhausted: readonly ExhaustedBudget[] = [],
): void {
  if (result.succeeded > 0) return;
  const refused = result.providers_failed.filter((f) => REFUSED.has(f.reason));
  if (refused.length > 0) {
    const budgets = distinctBudgets(exhausted);
    const quotaOnly = refused.every((f) => f.reason === "operator_quota_exhausted");
    const which = describeExhausted(budgets) || `refused: ${refused.map((f) => f.provider).join(", ")}`;
    const others = result.providers_failed.filter((f) => !REFUSED.has(f.reason));
    const alsoFailed = others.length > 0 ? `; the other providers failed (${listReasons(others)})` : "";
    throw new ServiceError(
      "budget_exhausted",
      `${quotaOnly ? "operator quota" : "budget"} exhausted — ${which}${alsoFailed}`,
      {
        exhausted: budgets,
        providers_failed: result.providers_failed.map(({ provider, reason }) => ({ provider, reason })),
      },
    );
  }
  const failures = result.providers_failed;
  if (failures.length > 0 && failures.every((f) => WAITING.has(f.reason))) {
    const retryAfter = Math.min(...failures.map(retryAfterOf));
    throw new ServiceError(
      "rate_limited",
      `every provider is rate limited or out of quota for now (${listReasons(failures)}); try again in ${retryAfter} s`,
      {
        providers_failed: failures.map(({ provider, reason }) => ({ provider, reason })),
        retry_after: retryAfter,
      },
      retryAfter,
    );
  }
  throw new ServiceError(
    "all_providers_failed",
    `every provider failed (${listReasons(failures)})`,
    failures,
  );
}
