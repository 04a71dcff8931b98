import { describe, expect, it } from "vitest";
import type { ProviderFailure } from "@/lib/engine/shared/types";
import { breakerKey, createCircuitBreakers, verdictOf } from "@/lib/pipeline/health/circuit-breaker";

function clock() {
  let now = 1_000_000;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

const SHARED = "duckduckgo:keyless";

describe("circuit breaker", () => {
  it("opens after the threshold of consecutive unhealthy outcomes and refuses while open", () => {
    const time = clock();
    const breakers = createCircuitBreakers({ threshold: 3, cooldownMs: 30_000, now: time.now });
    for (let i = 0; i < 2; i++) {
      expect(breakers.allow("p", "a")).toBe(true);
      breakers.record("p", "a", "unhealthy");
    }
    expect(breakers.state("p", "a")).toBe("closed");
    breakers.record("p", "a", "unhealthy");
    expect(breakers.state("p", "a")).toBe("open");
    expect(breakers.allow("p", "a")).toBe(false);
    time.advance(29_999);
    expect(breakers.allow("p", "a")).toBe(false);
  });

  it("a success in between resets the count", () => {
    const breakers = createCircuitBreakers({ threshold: 2 });
    breakers.record("p", "a", "unhealthy");
    breakers.record("p", "a", "healthy");
    breakers.record("p", "a", "unhealthy");
    expect(breakers.state("p", "a")).toBe("closed");
  });

  it("half-opens after the cool-down with one probe at a time; a healthy probe closes it", () => {
    const time = clock();
    const breakers = createCircuitBreakers({ threshold: 1, cooldownMs: 1_000, now: time.now });
    breakers.record("p", "a", "unhealthy");
    time.advance(1_000);
    expect(breakers.state("p", "a")).toBe("half_open");
    expect(breakers.allow("p", "a")).toBe(true);
    expect(breakers.allow("p", "a")).toBe(false); // the probe is in flight
    breakers.record("p", "a", "healthy");
    expect(breakers.state("p", "a")).toBe("closed");
    expect(breakers.allow("p", "a")).toBe(true);
  });

  it("a failed probe re-opens for another cool-down", () => {
    const time = clock();
    const breakers = createCircuitBreakers({ threshold: 5, cooldownMs: 1_000, now: time.now });
    for (let i = 0; i < 5; i++) breakers.record("p", "a", "unhealthy");
    time.advance(1_000);
    expect(breakers.allow("p", "a")).toBe(true);
    breakers.record("p", "a", "unhealthy");
    expect(breakers.state("p", "a")).toBe("open");
    time.advance(999);
    expect(breakers.allow("p", "a")).toBe(false);
  });

  it("a neutral outcome (refused key, budget) frees the probe slot without deciding anything", () => {
    const time = clock();
    const breakers = createCircuitBreakers({ threshold: 1, cooldownMs: 10, now: time.now });
    breakers.record("p", "a", "unhealthy");
    time.advance(10);
    expect(breakers.allow("p", "a")).toBe(true);
    breakers.record("p", "a", "neutral");
    expect(breakers.state("p", "a")).toBe("half_open");
    expect(breakers.allow("p", "a")).toBe(true);
  });

  it("keeps breakers apart per key and lists those not closed by provider", () => {
    const breakers = createCircuitBreakers({ threshold: 1 });
    const a = breakerKey("brave", "key-of-tenant-a");
    const b = breakerKey("brave", "key-of-tenant-b");
    breakers.record(a, "a", "unhealthy");
    expect(breakers.allow(a, "a")).toBe(false);
    expect(breakers.allow(b, "b")).toBe(true);
    expect(breakers.notClosed()).toEqual([{ key: a, state: "open" }]);
    expect(a).toMatch(/^brave:/);
    expect(a).not.toContain("key-of-tenant-a");
    expect(breakerKey("duckduckgo", undefined)).toBe(SHARED);
  });

  it("on a shared key, one tenant's failures open its own breaker only", () => {
    const breakers = createCircuitBreakers({ threshold: 3, quorum: 2 });
    for (let i = 0; i < 100; i++) breakers.record(SHARED, "attacker", "unhealthy");
    expect(breakers.state(SHARED, "attacker")).toBe("open");
    expect(breakers.allow(SHARED, "attacker")).toBe(false);
    expect(breakers.state(SHARED, "victim")).toBe("closed");
    expect(breakers.allow(SHARED, "victim")).toBe(true);
    // Failures below the threshold of other tenants do not make a quorum either.
    breakers.record(SHARED, "other", "unhealthy");
    expect(breakers.allow(SHARED, "victim")).toBe(true);
  });

  it("opens for every tenant of the key once a quorum of tenants have their breaker open", () => {
    const time = clock();
    const breakers = createCircuitBreakers({ threshold: 2, cooldownMs: 1_000, quorum: 3, now: time.now });
    for (const tenant of ["a", "b"]) for (let i = 0; i < 2; i++) breakers.record(SHARED, tenant, "unhealthy");
    expect(breakers.allow(SHARED, "newcomer")).toBe(true);
    for (let i = 0; i < 2; i++) breakers.record(SHARED, "c", "unhealthy");
    expect(breakers.state(SHARED, "newcomer")).toBe("open");
    expect(breakers.allow(SHARED, "newcomer")).toBe(false);
    expect(breakers.allow("brave:keyless", "newcomer")).toBe(true); // another key is untouched

    // After the cool-down the tripped tenants probe; one healthy probe breaks the quorum for everyone.
    time.advance(1_000);
    expect(breakers.allow(SHARED, "newcomer")).toBe(true);
    expect(breakers.allow(SHARED, "a")).toBe(true);
    breakers.record(SHARED, "a", "healthy");
    expect(breakers.state(SHARED, "a")).toBe("closed");
    expect(breakers.state(SHARED, "newcomer")).toBe("closed");
    // Failed probes re-open the tripped tenants, and with them the quorum.
    breakers.record(SHARED, "a", "unhealthy");
    breakers.record(SHARED, "a", "unhealthy");
    for (const tenant of ["b", "c"]) {
      expect(breakers.allow(SHARED, tenant)).toBe(true);
      breakers.record(SHARED, tenant, "unhealthy");
    }
    expect(breakers.allow(SHARED, "newcomer")).toBe(false);
  });

  it("judges only the provider's own faults unhealthy", () => {
    const failure: ProviderFailure = { provider: "p", reason: "timeout", duration_ms: 1 };
    const span = {
      provider: "p",
      kind: "search",
      start_offset_ms: 0,
      duration_ms: 1,
      outcome: "ok" as const,
    };
    expect(verdictOf({ span })).toBe("healthy");
    expect(verdictOf({ span, failure, providerFault: true })).toBe("unhealthy");
    expect(verdictOf({ span, failure, providerFault: false })).toBe("neutral");
    expect(verdictOf({ span, failure })).toBe("neutral");
  });
});
