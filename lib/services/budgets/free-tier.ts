/** A provider's free tier as budgets and provider status show it: what is used of it and what is left. */
import type { FreeTier } from "@/lib/engine/shared/types";
import { displayAmount, usdToMicros } from "@/lib/pipeline/budgets/units";

/** The metric a free tier is counted in: requests, or dollars of credit (stored as micro-dollars). */
export const freeTierMetric = (tier: FreeTier): "requests" | "usd" =>
  tier.usd !== undefined ? "usd" : "requests";

/** The tier's size in its own unit: requests, or dollars. */
export const freeTierSize = (tier: FreeTier): number => (tier.usd !== undefined ? tier.usd : tier.requests);

/** The tier's size as usage is stored: a count of requests, or micro-dollars. */
const freeTierLimit = (tier: FreeTier): number =>
  tier.usd !== undefined ? usdToMicros(tier.usd) : tier.requests;

/** The tier with `used` and `remaining` in its own unit (requests, or dollars), from the stored usage. */
export function freeTierUsage(tier: FreeTier, usedStored: number) {
  const metric = freeTierMetric(tier);
  return {
    ...tier,
    used: displayAmount(metric, usedStored),
    remaining: displayAmount(metric, Math.max(freeTierLimit(tier) - usedStored, 0)),
  };
}
