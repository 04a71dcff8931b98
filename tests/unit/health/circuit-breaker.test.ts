import { describe, expect, it } from "vitest";
import type { ProviderFailure } from "@/lib/engine/shared/types";
import { breakerKey, createCircuitBreakers, verdictOf } from "@/lib/services/health/circuit-breaker";

function clock() {
  let now = 1_000_000;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe("circuit breaker", () => {
  it("opens after the threshold of consecutive unhealthy outcomes and refuses while open", () => {
    const time = clock();
    const breakers = createCircuitBreakers({ threshold: 3, cooldownMs: 30_000, now: time.now });
    for (let i = 0; i < 2; i++) {
      expect(breakers.allow("p")).toBe(true);
      breakers.record("p", "unhealthy");
    }
    expect(breakers.state("p")).toBe("closed");
    breakers.record("p", "unhealthy");
    expect(breakers.state("p")).toBe("open");
    expect(breakers.allow("p")).toBe(false);
    time.advance(29_999);
    expect(breakers.allow("p")).toBe(false);
  });

  it("a success in between resets the count", () => {
    const breakers = createCircuitBreakers({ threshold: 2 });
    breakers.record("p", "unhealthy");
    breakers.record("p", "healthy");
    breakers.record("p", "unhealthy");
    expect(breakers.state("p")).toBe("closed");
  });

  it("half-opens after the cool-down with one probe at a time; a healthy probe closes it", () => {
    const time = clock();
    const breakers = createCircuitBreakers({ threshold: 1, cooldownMs: 1_000, now: time.now });
    breakers.record("p", "unhealthy");
    time.advance(1_000);
    expect(breakers.state("p")).toBe("half_open");
    expect(breakers.allow("p")).toBe(true);
    expect(breakers.allow("p")).toBe(false); // the probe is in flight
    breakers.record("p", "healthy");
    expect(breakers.state("p")).toBe("closed");
    expect(breakers.allow("p")).toBe(true);
  });

  it("a failed probe re-opens for another cool-down", () => {
    const time = clock();
    const breakers = createCircuitBreakers({ threshold: 5, cooldownMs: 1_000, now: time.now });
    for (let i = 0; i < 5; i++) breakers.record("p", "unhealthy");
    time.advance(1_000);
    expect(breakers.allow("p")).toBe(true);
    breakers.record("p", "unhealthy");
    expect(breakers.state("p")).toBe("open");
    time.advance(999);
    expect(breakers.allow("p")).toBe(false);
  });

  it("a neutral outcome (refused key, budget) frees the probe slot without deciding anything", () => {
    const time = clock();
    const breakers = createCircuitBreakers({ threshold: 1, cooldownMs: 10, now: time.now });
    breakers.record("p", "unhealthy");
    time.advance(10);
    expect(breakers.allow("p")).toBe(true);
    breakers.record("p", "neutral");
    expect(breakers.state("p")).toBe("half_open");
    expect(breakers.allow("p")).toBe(true);
  });

  it("keeps breakers apart per key and lists those not closed by provider", () => {
    const breakers = createCircuitBreakers({ threshold: 1 });
    const a = breakerKey("brave", "key-of-tenant-a");
    const b = breakerKey("brave", "key-of-tenant-b");
    breakers.record(a, "unhealthy");
    expect(breakers.allow(a)).toBe(false);
    expect(breakers.allow(b)).toBe(true);
    expect(breakers.notClosed()).toEqual([{ key: a, state: "open" }]);
    expect(a).toMatch(/^brave:/);
    expect(a).not.toContain("key-of-tenant-a");
    expect(breakerKey("duckduckgo", undefined)).toBe("duckduckgo:keyless");
  });

  it("judges 5xx, timeouts and broken responses unhealthy, never a refused key or a bad request", () => {
    const failure = (reason: ProviderFailure["reason"], status?: number) =>
      verdictOf({ provider: "p", reason, status, duration_ms: 1 });
    expect(verdictOf(undefined)).toBe("healthy");
    expect(failure("http_error", 503)).toBe("unhealthy");
    expect(failure("http_error", 500)).toBe("unhealthy");
    expect(failure("timeout")).toBe("unhealthy");
    expect(failure("network_error")).toBe("unhealthy");
    expect(failure("invalid_response")).toBe("unhealthy");
    expect(failure("bad_key", 401)).toBe("neutral");
    expect(failure("http_error", 400)).toBe("neutral");
    expect(failure("rate_limited", 429)).toBe("neutral");
  });
});
