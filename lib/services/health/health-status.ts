import type { BreakerState } from "@/lib/pipeline/capabilities";

/**
 * A provider's health in one word, decided by how its recent calls went (never by the circuit breaker
 * alone: a closed breaker only means the last few calls did not fail in a row).
 */
export type HealthStatus = "healthy" | "degraded" | "failing" | "no_data";

/** At least this share of calls answered: healthy. */
const HEALTHY_SUCCESS_RATE = 0.95;
/** At least this share (and below healthy): degraded; below it: failing. */
const DEGRADED_SUCCESS_RATE = 0.5;

/** `successRate` is the share of `calls` that answered (0..1), null when there were none. */
export function healthStatus(calls: number, successRate: number | null): HealthStatus {
  if (calls === 0 || successRate === null) return "no_data";
  if (successRate >= HEALTHY_SUCCESS_RATE) return "healthy";
  return successRate >= DEGRADED_SUCCESS_RATE ? "degraded" : "failing";
}

/** A provider's status for a workspace: paused or probing while its breaker holds calls back, else its health. */
export type ProviderState = HealthStatus | "paused" | "probing";

export function providerState(breaker: BreakerState, health: HealthStatus): ProviderState {
  if (breaker === "open") return "paused";
  if (breaker === "half_open") return "probing";
  return health;
}
