/**
 * Provider rate limits across two app instances (scorecard $2; two platforms, each with its own breakers
 * and Redis connection, sharing one database and one real Redis): a 429 pauses the key on both until the
 * window the provider names ends, calls in the meantime skip it (`rate_limited`, in `providers_skipped`)
 * and are not charged; rate-limit headers saying a longer window is used up pause it too, within an hour; a
 * key limited per second is paced so calls on it go out a second apart, whichever instance makes them; a
 * call of paced providers only waits for its send slot within its deadline, or answers 429 with Retry-After.
 */
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { toErrorResponse } from "@/lib/api/errors";
import { usageCounters } from "@/lib/db/schema";
import type { Platform, TenantContext } from "@/lib/pipeline/context";
import { ServiceError } from "@/lib/pipeline/errors";
import { claimSendSlot } from "@/lib/pipeline/rate-limit/pacing";
import { keyId } from "@/lib/pipeline/rate-limit/provider-pause";
import { setKey } from "@/lib/services/keys/set-key";
import { webSearch } from "@/lib/services/search/web-search";
import { createTenant } from "@/lib/services/tenants/create-tenant";
import { toSearchResponse } from "@/lib/tools/responses";
import { type FakeProviders, startFakeProviders } from "@/tests/fakes/provider-server";
import { databaseTargets, type TestDatabase } from "@/tests/support/database";
import { generous } from "@/tests/support/generous";
import { systemCtx, tenantCtx, testPlatform } from "@/tests/support/platform";
import { fakeBaseUrls } from "@/tests/support/service-suite";
import { testRedisKv } from "@/tests/support/test-redis";

/** Brave's headers on the free plan (1 request a second, 2,000 a month), as its documentation shows them. */
const FREE_PLAN = {
  "x-ratelimit-limit": "1, 2000",
  "x-ratelimit-policy": "1;w=1, 2000;w=2592000",
  "x-ratelimit-remaining": "0, 1999",
  "x-ratelimit-reset": "1, 1419704",
};

describe.each(databaseTargets())("provider rate limits across two instances on $name", (target) => {
  let t: TestDatabase;
  let fake: FakeProviders;
  let a: Platform;
  let b: Platform;
  let operatorBrave: string;
  /** The same workspace as each instance sees it. */
  let onA: TenantContext;
  let onB: TenantContext;

  const search = (ctx: TenantContext, query: string) =>
    webSearch({ ctx, input: { query, providers: ["brave", "duckduckgo"], no_cache: true } });
  const braveUse = async (ctx: TenantContext) => {
    await ctx.usage.flush();
    const rows = await ctx.db.withTenant(ctx.tenantId, (tx) =>
      tx.select().from(usageCounters).where(eq(usageCounters.provider, "brave")),
    );
    return rows.filter((r) => r.metric === "requests" && r.periodKey === "lifetime").at(0)?.used ?? 0;
  };

  beforeAll(async () => {
    t = await target.create();
    fake = await startFakeProviders();
  });
  afterAll(async () => {
    await Promise.all([a?.kv.close(), b?.kv.close()]);
    await fake?.close();
    await t?.cleanup();
  });
  beforeEach(async () => {
    await Promise.all([a?.kv.close(), b?.kv.close()]);
    fake.resetScenarios();
    fake.clearRequests();
    // A fresh operator key per test: its pauses and send slots are its own.
    operatorBrave = `brave-${randomUUID()}`;
    const env = { BRAVE_API_KEY: operatorBrave, ...fakeBaseUrls(fake, ["brave", "duckduckgo"]) };
    a = testPlatform(t.db, { kv: testRedisKv(), env });
    b = testPlatform(t.db, { kv: testRedisKv(), env, keyring: a.keyring });
    const tenant = await createTenant({ ctx: systemCtx(a), input: { name: `rl-${randomUUID()}` } });
    onA = tenantCtx(a, tenant.id);
    onB = tenantCtx(b, tenant.id);
  });

  it("pauses a key answered 429 on both instances until its Retry-After ends, skipping it uncharged", async () => {
    fake.setScenario("brave", { status: 429, retryAfter: "30" });
    const first = await search(onA, "first");
    expect(first.providers_failed).toEqual([
      expect.objectContaining({ provider: "brave", reason: "rate_limited", status: 429 }),
    ]);
    fake.resetScenarios(); // the provider would answer now; the key is still paused for 30 s

    const later = await Promise.all([search(onB, "second"), search(onA, "third"), search(onB, "fourth")]);
    expect(fake.requests("brave")).toHaveLength(1);
    for (const result of later) {
      expect(result.providers_succeeded.map((p) => p.provider)).toEqual(["duckduckgo"]);
      expect(toSearchResponse(result).providers_skipped).toEqual([
        { provider: "brave", reason: "rate_limited" },
      ]);
      expect(result.providers_failed).toEqual([
        expect.objectContaining({ provider: "brave", reason: "rate_limited", duration_ms: 0 }),
      ]);
      expect(result.spans.find((s) => s.provider === "brave")?.outcome).toBe("skipped_rate_limit");
    }
    // Neither the 429 nor the skips were charged.
    expect(await braveUse(onA)).toBe(0);
    // What a skip says names the pause, never the key; KV holds the key's hash only.
    const said = later[0]?.providers_failed[0]?.message ?? "";
    expect(said).toMatch(/^rate limited: the key is paused until \d{4}-\d\d-\d\dT[\d:.]+Z/);
    expect(said).not.toContain(operatorBrave);
    expect(keyId("brave", operatorBrave)).not.toContain(operatorBrave);

    // The operator's key is shared: another workspace using it skips it too.
    const other = tenantCtx(b, (await createTenant({ ctx: systemCtx(b), input: { name: "other" } })).id);
    expect(toSearchResponse(await search(other, "other")).providers_skipped).toEqual([
      { provider: "brave", reason: "rate_limited" },
    ]);
    expect(fake.requests("brave")).toHaveLength(1);

    // The pause is the key's: the workspace's own Brave key is asked.
    const own = tenantCtx(a, (await createTenant({ ctx: systemCtx(a), input: { name: "own" } })).id);
    await setKey({ ctx: own, input: { provider: "brave", key: `own-${randomUUID()}` } });
    expect((await search(own, "own key")).providers_succeeded.map((p) => p.provider).sort()).toEqual([
      "brave",
      "duckduckgo",
    ]);
  });

  it("asks the key again once the pause ends", async () => {
    fake.setScenario("brave", { status: 429, retryAfter: "1" });
    await search(onA, "paused");
    fake.resetScenarios();
    expect(toSearchResponse(await search(onB, "still paused")).providers_skipped).toEqual([
      { provider: "brave", reason: "rate_limited" },
    ]);
    // Each try is a search; the pause's end is what lets one through.
    await expect
      .poll(async () => (await search(onB, "again")).providers_succeeded.map((p) => p.provider).sort(), {
        timeout: generous(1_000),
        interval: 250,
      })
      .toEqual(["brave", "duckduckgo"]);
    expect(fake.requests("brave")).toHaveLength(2);
  });

  it("takes the pause from headers: an answer whose month is used up, a 429 without Retry-After", async () => {
    // An answer saying the month has nothing left: the key pauses until it resets, an hour at most. (Its
    // plan of 50 a second leaves the next call unpaced.)
    fake.setScenario("brave", {
      headers: {
        "x-ratelimit-policy": "50;w=1, 2000;w=2592000",
        "x-ratelimit-remaining": "3, 0",
        "x-ratelimit-reset": "1, 1419704",
      },
    });
    const answered = await search(onA, "last of the month");
    expect(answered.providers_succeeded.map((p) => p.provider).sort()).toEqual(["brave", "duckduckgo"]);
    const pause = `smx:pause:${keyId("brave", operatorBrave)}`;
    expect(await b.kv.ttl(pause)).toBeGreaterThan(3000);
    expect(await b.kv.ttl(pause)).toBeLessThanOrEqual(3600);
    expect(toSearchResponse(await search(onB, "next")).providers_skipped).toEqual([
      { provider: "brave", reason: "rate_limited" },
    ]);
    await b.kv.del(pause);

    // A 429 without Retry-After: the reset of the window with nothing left (20 s).
    fake.setScenario("brave", {
      status: 429,
      retryAfter: null,
      headers: { "x-ratelimit-remaining": "0, 12", "x-ratelimit-reset": "20, 86400" },
    });
    await search(onB, "burst");
    expect(await a.kv.ttl(pause)).toBeGreaterThan(10);
    expect(await a.kv.ttl(pause)).toBeLessThanOrEqual(20);
    expect(fake.requests("brave")).toHaveLength(2);
  });

  it("gives calls on a key limited to 1 a second send slots at least a second apart, from either instance", async () => {
    const id = keyId("brave", operatorBrave);
    const start = 1_000 * 1_100; // a slot boundary on a virtual clock; slots are 1.1 s at 1 a second
    const sent: Array<{ now: number; at: number }> = [];
    let skipped = 0;
    // Two calls every 300 ms for 6 s, alternately from each instance's Redis connection.
    for (let i = 0; i < 40; i++) {
      const now = start + Math.floor(i / 2) * 300;
      const wait = await claimSendSlot(i % 2 === 0 ? a.kv : b.kv, id, 1, now);
      if (wait === null) skipped++;
      else sent.push({ now, at: now + wait });
    }
    expect(sent[0]).toEqual({ now: start, at: start }); // an idle key goes at once
    for (const { now, at } of sent) expect(at - now).toBeLessThanOrEqual(1_200); // a short wait at most
    const times = sent.map((s) => s.at).sort((x, y) => x - y);
    for (let i = 1; i < times.length; i++) {
      // Brave counts over a sliding second: never two calls within one.
      expect((times[i] as number) - (times[i - 1] as number)).toBeGreaterThanOrEqual(1_000);
    }
    // About one call a slot goes out; the rest are skipped rather than queued.
    expect(sent.length).toBeGreaterThanOrEqual(3);
    expect(skipped).toBe(40 - sent.length);
    expect(skipped).toBeGreaterThan(0);
  });

  it("paces a key its headers put on the free plan: a call without a send slot skips it, uncharged", async () => {
    fake.setScenario("brave", { headers: FREE_PLAN });
    await search(onA, "learn the plan"); // the answer names 1 a second
    const id = keyId("brave", operatorBrave);
    expect(await b.kv.get(`smx:pace-rate:${id}`)).toBe("1");
    // Another instance holds every send slot of the next seconds.
    for (let at = Date.now() - 2_000; at < Date.now() + 15_000; at += 500)
      await claimSendSlot(a.kv, id, 1, at);

    const skipped = await search(onB, "no slot");
    expect(toSearchResponse(skipped).providers_skipped).toEqual([
      { provider: "brave", reason: "rate_limited" },
    ]);
    expect(skipped.providers_failed[0]?.message).toMatch(
      /no send slot within 1200 ms under its limit of 1 a second/,
    );
    expect(fake.requests("brave")).toHaveLength(1);
    expect(await braveUse(onA)).toBe(1); // the first call only: the skipped one's reservation was refunded
  });

  it("lets a call of paced providers only wait for its send slot: a Brave-only burst all answered, a second apart", async () => {
    fake.setScenario("brave", { headers: FREE_PLAN });
    const arrivals: number[] = [];
    const onlyBrave = (ctx: TenantContext, query: string) =>
      webSearch({
        ctx,
        input: { query, providers: ["brave"], no_cache: true, timeout_ms: 20_000 },
        onProgress: (event) => {
          if (event.provider === "brave" && event.outcome === "ok") arrivals.push(Date.now());
        },
      });
    // Four at once from both instances: a fan-out would skip all but the first two (1.2 s of wait at most).
    const burst = await Promise.all(
      Array.from({ length: 4 }, (_, i) => onlyBrave(i % 2 === 0 ? onA : onB, `paced ${i}`)),
    );
    for (const result of burst) {
      expect(result.providers_succeeded.map((p) => p.provider)).toEqual(["brave"]);
      expect(toSearchResponse(result).providers_skipped).toEqual([]);
    }
    expect(fake.requests("brave")).toHaveLength(4);
    // Sent a slot apart: their answers cannot come closer together than the sends (a busy machine only
    // spreads them further).
    const times = arrivals.sort((x, y) => x - y);
    expect((times[3] as number) - (times[0] as number)).toBeGreaterThanOrEqual(2_000);
    await onB.usage.flush(); // half the calls were B's
    expect(await braveUse(onA)).toBe(4);
  });

  it("answers a paced-only call whose slot is past its deadline 429 with Retry-After, never 502 or 402", async () => {
    fake.setScenario("brave", { headers: FREE_PLAN });
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        webSearch({
          ctx: i % 2 === 0 ? onA : onB,
          input: { query: `deadline ${i}`, providers: ["brave"], no_cache: true, timeout_ms: 5_000 },
        }).catch((error: unknown) => error),
      ),
    );
    const refused = outcomes.filter((o): o is ServiceError => o instanceof ServiceError);
    const answered = outcomes.length - refused.length;
    // The deadline leaves room for a few slots (3 s of waiting), never for ten.
    expect(answered).toBeGreaterThanOrEqual(1);
    expect(refused.length).toBeGreaterThanOrEqual(1);
    for (const error of refused) {
      expect(error.code).toBe("rate_limited");
      expect(error.retryAfterSeconds).toBeGreaterThanOrEqual(1);
      const response = toErrorResponse(error, "request");
      expect(response.status).toBe(429);
      expect(response.headers.get("retry-after")).toBe(String(error.retryAfterSeconds));
    }
    expect(fake.requests("brave")).toHaveLength(answered);
    await onB.usage.flush(); // half the calls were B's
    expect(await braveUse(onA)).toBe(answered); // the refused were not charged
  });

  it("does not pace a key whose headers name a plan of 50 a second", async () => {
    await search(onA, "paid plan"); // the fake answers with a paid plan's headers
    const id = keyId("brave", operatorBrave);
    expect(await a.kv.get(`smx:pace-rate:${id}`)).toBe("50");
    const burst = await Promise.all(
      Array.from({ length: 4 }, (_, i) => search(i % 2 === 0 ? onA : onB, `burst ${i}`)),
    );
    for (const result of burst) expect(toSearchResponse(result).providers_skipped).toEqual([]);
    expect(fake.requests("brave")).toHaveLength(5);
  });
});
