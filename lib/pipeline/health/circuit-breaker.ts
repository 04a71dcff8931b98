/**
 * Circuit breakers per (key, provider), counted per tenant: a provider that keeps failing for a
 * tenant's calls is skipped for that tenant (reason `breaker_open`, no charge) for a cool-down, then
 * one probe call decides whether it closes again. It is skipped for every tenant of the key only once
 * a quorum of distinct tenants have their own breaker open: the operator's keys and keyless providers
 * are shared, and no single tenant may switch a provider off for all the others (docs/decisions.md,
 * "Circuit breakers"). Only the provider's own faults count (AttemptReport.providerFault): never a
 * refused key, a bad request, the caller's deadline or cancellation, or our own code throwing.
 *
 * State lives in the process, like the connection pool it protects: each instance learns on its own
 * within `threshold` calls, and nothing on the hot path waits for shared storage.
 */
import { createHash } from "node:crypto";
import type { AttemptReport } from "@/lib/engine/shared/types";
import type { BreakerState, CircuitBreakers, Verdict } from "@/lib/pipeline/capabilities";

export interface BreakerOptions {
  /** Consecutive unhealthy outcomes of one tenant that open its breaker. */
  threshold: number;
  /** How long an open breaker refuses calls before letting one probe through. */
  cooldownMs: number;
  /** Distinct tenants whose breakers must be open at once for the provider to be skipped for everyone. */
  quorum: number;
  now: () => number;
}

interface Entry {
  failures: number;
  openedAt?: number;
  probing: boolean;
}

export const DEFAULT_BREAKER_OPTIONS: BreakerOptions = {
  threshold: 5,
  cooldownMs: 30_000,
  quorum: 3,
  now: Date.now,
};

/** A key hash so the map never holds a provider key, and keyless calls share one breaker. */
export function breakerKey(provider: string, apiKey: string | undefined): string {
  const owner = apiKey ? createHash("sha256").update(apiKey).digest("base64url").slice(0, 16) : "keyless";
  return `${provider}:${owner}`;
}

/** What an attempt says about the provider's health. */
export function verdictOf(report: AttemptReport): Verdict {
  if (!report.failure) return "healthy";
  return report.providerFault ? "unhealthy" : "neutral";
}

export function createCircuitBreakers(options: Partial<BreakerOptions> = {}): CircuitBreakers {
  const { threshold, cooldownMs, quorum, now } = { ...DEFAULT_BREAKER_OPTIONS, ...options };
  /** Per key, each tenant's breaker; a tenant without an entry is closed with no failures. */
  const keys = new Map<string, Map<string, Entry>>();

  const stateOf = (entry: Entry | undefined): BreakerState => {
    if (entry?.openedAt === undefined) return "closed";
    return now() - entry.openedAt >= cooldownMs ? "half_open" : "open";
  };
  // Half-open breakers are probing, not proof: only breakers within their cool-down make the quorum,
  // so it dissolves unless the tripped tenants' probes keep failing.
  const quorumOpen = (tenants: Map<string, Entry> | undefined): boolean => {
    let open = 0;
    for (const entry of tenants?.values() ?? [])
      if (stateOf(entry) === "open" && ++open >= quorum) return true;
    return false;
  };

  return {
    allow(key, tenant) {
      const tenants = keys.get(key);
      const entry = tenants?.get(tenant);
      const state = stateOf(entry);
      if (state === "closed") return !quorumOpen(tenants);
      if (state === "open" || !entry || entry.probing) return false;
      entry.probing = true;
      return true;
    },
    record(key, tenant, verdict) {
      const tenants = keys.get(key);
      const entry = tenants?.get(tenant);
      if (entry) entry.probing = false;
      if (verdict === "healthy" && tenants) {
        tenants.delete(tenant);
        if (tenants.size === 0) keys.delete(key);
      }
      if (verdict !== "unhealthy") return;
      const next = entry ?? { failures: 0, probing: false };
      next.failures += 1;
      // A failed probe re-opens at once; a closed breaker opens at the threshold.
      if (next.openedAt !== undefined || next.failures >= threshold) next.openedAt = now();
      if (tenants) tenants.set(tenant, next);
      else keys.set(key, new Map([[tenant, next]]));
    },
    state(key, tenant) {
      const tenants = keys.get(key);
      const own = stateOf(tenants?.get(tenant));
      return own === "closed" && quorumOpen(tenants) ? "open" : own;
    },
    notClosed() {
      const out: Array<{ key: string; state: Exclude<BreakerState, "closed"> }> = [];
      for (const [key, tenants] of keys) {
        for (const entry of tenants.values()) {
          const state = stateOf(entry);
          if (state !== "closed") out.push({ key, state });
        }
      }
      return out;
    },
  };
}
