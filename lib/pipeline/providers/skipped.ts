/**
 * Providers a call did not ask, with why: `providers_skipped` of a search response and its trace. Admission
 * refusals (an open breaker, a spent budget or operator quota) are skips too; they stay in providers_failed
 * as well, where callers have always found them.
 */
import type { ProviderFailure } from "@/lib/engine/shared/types";

export const SKIP_REASONS = ["low_contribution", "rate_limited", "budget", "breaker_open"] as const;
type SkipReason = (typeof SKIP_REASONS)[number];

export interface SkippedProvider {
  provider: string;
  reason: SkipReason;
}

/** The skip reason of each admission refusal (a failure reason meaning the provider was never called). */
const SKIP_OF_REFUSAL: Readonly<Record<string, SkipReason>> = {
  breaker_open: "breaker_open",
  budget_exhausted: "budget",
  operator_quota_exhausted: "budget",
};

/** Whether a failure with `reason` was a refusal at admission: the provider was not called. */
export const isRefusal = (reason: string): boolean => reason in SKIP_OF_REFUSAL;

/** The call's skips: those decided before the call (`planned`), then the refusals among its failures. */
export function skippedProviders(
  planned: readonly SkippedProvider[],
  failures: readonly Pick<ProviderFailure, "provider" | "reason">[],
): SkippedProvider[] {
  const refused = failures.flatMap(({ provider, reason }) => {
    const skip = SKIP_OF_REFUSAL[reason];
    return skip ? [{ provider, reason: skip }] : [];
  });
  return [...planned, ...refused];
}
