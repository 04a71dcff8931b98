/**
 * Circuit breakers per (key, provider): a provider that keeps timing out or failing with 5xx for one
 * key is skipped (reason `breaker_open`, no charge) for a cool-down, then one probe call decides
 * whether it closes again. A refused key (401/403) or a bad request is the caller's problem, not the
 * provider's health, so it never trips a breaker.
 *
 * State lives in the process, like the connection pool it protects: each instance learns on its own
 * within `threshold` calls, and nothing on the hot path waits for shared storage.
 */
import { createHash } from "node:crypto";
import type { ProviderFailure } from "../../engine/shared/types";

export type BreakerState = "closed" | "open" | "half_open";

export interface BreakerOptions {
  /** Consecutive unhealthy outcomes that open the breaker. */
  threshold: number;
  /** How long an open breaker refuses calls before letting one probe through. */
  cooldownMs: number;
  now: () => number;
}

export interface CircuitBreakers {
  /** Whether a call may go out now; in half-open state only one probe at a time may. */
  allow(key: string): boolean;
  /** The outcome of an admitted call: healthy, unhealthy, or neutral (says nothing about health). */
  record(key: string, verdict: Verdict): void;
  state(key: string): BreakerState;
  /** Breakers that are not closed, by key (`provider:keyhash`). */
  notClosed(): Array<{ key: string; state: Exclude<BreakerState, "closed"> }>;
}

export type Verdict = "healthy" | "unhealthy" | "neutral";

interface Entry {
  failures: number;
  openedAt?: number;
  probing: boolean;
}

export const DEFAULT_BREAKER_OPTIONS: BreakerOptions = { threshold: 5, cooldownMs: 30_000, now: Date.now };

/** A key hash so the map never holds a provider key, and keyless calls share one breaker. */
export function breakerKey(provider: string, apiKey: string | undefined): string {
  const owner = apiKey ? createHash("sha256").update(apiKey).digest("base64url").slice(0, 16) : "keyless";
  return `${provider}:${owner}`;
}

const UNHEALTHY: ReadonlySet<ProviderFailure["reason"]> = new Set([
  "timeout",
  "network_error",
  "invalid_response",
  "too_large",
]);

/** What an attempt says about the provider's health. */
export function verdictOf(failure: ProviderFailure | undefined): Verdict {
  if (!failure) return "healthy";
  if (UNHEALTHY.has(failure.reason)) return "unhealthy";
  if (failure.reason === "http_error" && (failure.status === undefined || failure.status >= 500))
    return "unhealthy";
  return "neutral";
}

export function createCircuitBreakers(options: Partial<BreakerOptions> = {}): CircuitBreakers {
  const { threshold, cooldownMs, now } = { ...DEFAULT_BREAKER_OPTIONS, ...options };
  const entries = new Map<string, Entry>();

  const stateOf = (entry: Entry | undefined): BreakerState => {
    if (entry?.openedAt === undefined) return "closed";
    return now() - entry.openedAt >= cooldownMs ? "half_open" : "open";
  };

  return {
    allow(key) {
      const entry = entries.get(key);
      const state = stateOf(entry);
      if (state === "closed") return true;
      if (state === "open" || !entry || entry.probing) return false;
      entry.probing = true;
      return true;
    },
    record(key, verdict) {
      const entry = entries.get(key);
      if (entry) entry.probing = false;
      if (verdict === "healthy") entries.delete(key);
      if (verdict !== "unhealthy") return;
      const next = entry ?? { failures: 0, probing: false };
      next.failures += 1;
      // A failed probe re-opens at once; a closed breaker opens at the threshold.
      if (next.openedAt !== undefined || next.failures >= threshold) next.openedAt = now();
      entries.set(key, next);
    },
    state: (key) => stateOf(entries.get(key)),
    notClosed() {
      const out: Array<{ key: string; state: Exclude<BreakerState, "closed"> }> = [];
      for (const [key, entry] of entries) {
        const state = stateOf(entry);
        if (state !== "closed") out.push({ key, state });
      }
      return out;
    },
  };
}
