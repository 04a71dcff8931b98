import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { createMemoryKv } from "@/lib/kv/memory";
import type { Kv } from "@/lib/kv/types";
import type { Platform } from "@/lib/pipeline/context";
import {
  countFailedAuth,
  DEFAULT_RATE_LIMIT_RPM,
  FAILED_AUTH_PER_MINUTE,
  limitToken,
  peekFailedAuth,
} from "@/lib/pipeline/rate-limit/limits";
import { slidingWindow } from "@/lib/pipeline/rate-limit/sliding-window";
import { testRedisKv } from "@/tests/support/test-redis";

const stores: Array<[string, Kv]> = [
  ["memory", createMemoryKv()],
  ["redis", testRedisKv()],
];

describe.each(stores)("sliding-window rate limit on %s", (_, kv) => {
  afterAll(async () => kv.close());

  it("refuses the excess of a 2× burst with Retry-After, and leaves other keys alone", async () => {
    const key = `token-${randomUUID()}`;
    const now = Date.UTC(2026, 10, 22, 12, 0, 10);
    const decisions = await Promise.all(
      Array.from({ length: 20 }, () => slidingWindow(kv, key, 10, 60, now)),
    );
    expect(decisions.filter((d) => d.ok)).toHaveLength(10);
    const refused = decisions.filter((d) => !d.ok);
    expect(refused).toHaveLength(10);
    for (const d of refused) {
      expect(d.retryAfter).toBeGreaterThanOrEqual(1);
      expect(d.remaining).toBe(0);
    }
    const other = await slidingWindow(kv, `token-${randomUUID()}`, 10, 60, now);
    expect(other).toMatchObject({ ok: true, remaining: 9 });
  });

  it("lets the previous window fade out as the window slides", async () => {
    const key = `token-${randomUUID()}`;
    const start = Date.UTC(2026, 10, 22, 12, 0, 0);
    for (let i = 0; i < 10; i++) await slidingWindow(kv, key, 10, 60, start + 1000);
    // Just after the window turns, the previous window still counts almost fully.
    expect((await slidingWindow(kv, key, 10, 60, start + 61_000)).ok).toBe(false);
    // Half-way through, half of the previous window is left: room again.
    const later = await slidingWindow(kv, key, 10, 60, start + 90_000);
    expect(later.ok).toBe(true);
  });

  it("computes a Retry-After after which the call is admitted", async () => {
    const key = `token-${randomUUID()}`;
    const start = Date.UTC(2026, 10, 22, 12, 5, 0);
    for (let i = 0; i < 5; i++) await slidingWindow(kv, key, 5, 60, start + 30_000);
    const refused = await slidingWindow(kv, key, 5, 60, start + 40_000);
    expect(refused.ok).toBe(false);
    const retry = await slidingWindow(kv, key, 5, 60, start + 40_000 + refused.retryAfter * 1000);
    expect(retry.ok).toBe(true);
  });
});

describe("sliding-window Retry-After (property)", () => {
  const kv = createMemoryKv();
  afterAll(async () => kv.close());

  it("always admits the call made exactly Retry-After seconds after a refusal", async () => {
    const fc = await import("fast-check");
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 20 }), // limit
        fc.integer({ min: 0, max: 40 }), // calls in the previous window
        fc.integer({ min: 1, max: 40 }), // calls now
        fc.integer({ min: 0, max: 59_999 }), // offset of "now" into its window
        async (limit, earlier, burst, offset) => {
          const key = `prop-${randomUUID()}`;
          const windowStart = Date.UTC(2026, 10, 22, 13, 0, 0);
          for (let i = 0; i < earlier; i++) await slidingWindow(kv, key, limit, 60, windowStart - 30_000);
          let last = await slidingWindow(kv, key, limit, 60, windowStart + offset);
          for (let i = 1; i < burst; i++)
            last = await slidingWindow(kv, key, limit, 60, windowStart + offset);
          if (last.ok) return;
          const retry = await slidingWindow(
            kv,
            key,
            limit,
            60,
            windowStart + offset + last.retryAfter * 1000,
          );
          expect(retry.ok).toBe(true);
        },
      ),
      // [4, 0, 36, 0] once failed on a floating-point rounding of the estimate.
      { numRuns: 300, examples: [[4, 0, 36, 0]] },
    );
  });
});

describe("product rate limits", () => {
  const kv = createMemoryKv();
  afterAll(async () => kv.close());
  const platform = { kv, env: {}, now: () => new Date() } as unknown as Platform;

  it("uses the tenant override, else SEARCHMUX_RATE_LIMIT_RPM, else the default", async () => {
    const token = {
      tokenId: randomUUID(),
      tenantId: randomUUID(),
      name: "t",
      scopes: [],
      createdBy: null,
      expiresAt: null,
    };
    expect((await limitToken(platform, { ...token, rateLimitRpm: 7 })).limit).toBe(7);
    expect(
      (
        await limitToken(
          { ...platform, env: { SEARCHMUX_RATE_LIMIT_RPM: "30" } },
          { ...token, rateLimitRpm: null },
        )
      ).limit,
    ).toBe(30);
    expect((await limitToken(platform, { ...token, rateLimitRpm: null })).limit).toBe(DEFAULT_RATE_LIMIT_RPM);
  });

  it("blocks an address after too many failed authentications, without counting the check itself", async () => {
    const ip = `198.51.100.${Math.floor(Math.random() * 250)}`;
    for (let i = 0; i < FAILED_AUTH_PER_MINUTE - 1; i++) await countFailedAuth(platform, ip);
    for (let i = 0; i < 5; i++) expect((await peekFailedAuth(platform, ip)).ok).toBe(true);
    expect((await countFailedAuth(platform, ip)).ok).toBe(true);
    expect((await peekFailedAuth(platform, ip)).ok).toBe(false);
    expect((await countFailedAuth(platform, ip)).ok).toBe(false);
    expect((await peekFailedAuth(platform, "203.0.113.9")).ok).toBe(true);
  });
});
