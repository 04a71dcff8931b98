/**
 * Providers a call did not ask, on purpose, and why: `providers_skipped: [{provider, reason}]` in the
 * responses and traces. A skipped provider was sent nothing and charged nothing.
 * - `rate_limited`: its key is paused after a 429 (or headers saying the window is used up), or had no
 *   send slot left under its per-second limit (rate-limit/provider-pause.ts, rate-limit/pacing.ts);
 * - `quota_exhausted`: its key is paused after the provider refused it for its quota, credit or payment
 *   limit, until the reset (rate-limit/provider-pause.ts);
 * - `budget`: a budget or an operator quota refused it;
 * - `breaker_open`: its circuit breaker is open;
 * - `low_contribution`: auto mode left it out (contribution/);
 * - `safesearch`: it cannot apply the adult-content filter the call asked for (image_search).
 * - `no_news_search`: a news search (web_search's topic "news") left out a provider that has none.
 * Refusals at admission stay in providers_failed as well, where callers have always found them.
 */
import type { ProviderSpan, SpanOutcome } from "@/lib/engine/shared/types";

export const SKIP_REASONS = [
  "low_contribution",
  "rate_limited",
  "quota_exhausted",
  "budget",
  "breaker_open",
  "safesearch",
  "no_news_search",
] as const;
type SkipReason = (typeof SKIP_REASONS)[number];

export interface SkippedProvider {
  provider: string;
  reason: SkipReason;
}

/** The span outcomes of attempts the gateway skipped, with the skip's reason. */
const SKIP_OF_OUTCOME: Partial<Record<SpanOutcome, SkipReason>> = {
  skipped_budget: "budget",
  skipped_breaker: "breaker_open",
  skipped_rate_limit: "rate_limited",
  skipped_quota: "quota_exhausted",
};

/** The skip reason of each admission refusal (a failure reason meaning the provider was never called). */
const SKIP_OF_REFUSAL: Readonly<Record<string, SkipReason>> = {
  breaker_open: "breaker_open",
  budget_exhausted: "budget",
  operator_quota_exhausted: "budget",
  rate_limited: "rate_limited",
  quota_exhausted: "quota_exhausted",
};

/** Whether an attempt with this outcome was skipped (sent nothing, costs nothing). */
export const isSkipped = (outcome: SpanOutcome): boolean => outcome in SKIP_OF_OUTCOME;

/** The span outcomes of skipped attempts, for queries over stored spans. */
export const SKIPPED_OUTCOMES = Object.keys(SKIP_OF_OUTCOME) as SpanOutcome[];

/** Whether a failure with `reason` was a refusal at admission: the provider was not called. */
export const isRefusal = (reason: string): boolean => reason in SKIP_OF_REFUSAL;

/**
 * The call's skips, each provider once: those decided before the call (`planned`, auto mode's), then those
 * its spans show, in the spans' order.
 */
export function skippedProviders(
  spans: readonly Pick<ProviderSpan, "provider" | "outcome">[],
  planned: readonly SkippedProvider[] = [],
): SkippedProvider[] {
  const skips = new Map(planned.map(({ provider, reason }) => [provider, reason]));
  for (const span of spans) {
    const reason = SKIP_OF_OUTCOME[span.outcome];
    if (reason && !skips.has(span.provider)) skips.set(span.provider, reason);
  }
  return [...skips].map(([provider, reason]) => ({ provider, reason }));
}
