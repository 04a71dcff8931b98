/**
 * Circuit breakers and provider health through the real call path (webSearch → tool-call → engine),
 * with fake providers failing and recovering (RELIABILITY C1, C2), and what providerStatus reports.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { providerKeys } from "@/lib/db/schema";
import type { TenantContext } from "@/lib/pipeline/context";
import { createCircuitBreakers } from "@/lib/pipeline/health/circuit-breaker";
import type { ProviderProgress } from "@/lib/pipeline/provider-attempts";
import { budgetStatus } from "@/lib/services/budgets/budget-status";
import { setKey } from "@/lib/services/keys/set-key";
import { providerStatus } from "@/lib/services/providers/provider-status";
import { webSearch } from "@/lib/services/search/web-search";
import { createTenant } from "@/lib/services/tenants/create-tenant";
import { getTrace } from "@/lib/services/traces/get-trace";
import { primaryTarget } from "@/tests/support/database";
import { generous } from "@/tests/support/generous";
import { systemCtx, tenantCtx } from "@/tests/support/platform";
import { fakeBaseUrls, serviceSuite } from "@/tests/support/service-suite";

const THRESHOLD = 3;
const COOLDOWN_MS = 400;
const breakerClock = { ms: Date.now() };

describe.each(primaryTarget())("circuit breakers and provider health on $name", (target) => {
  const s = serviceSuite(target, {
    env: (fake) => ({
      BRAVE_API_KEY: "operator-brave-key",
      ...fakeBaseUrls(fake, ["duckduckgo", "brave", "tavily"]),
    }),
    // The breakers' own clock, moved by the test: a busy machine cannot run the cool-down out early.
    platform: {
      breakers: createCircuitBreakers({
        threshold: THRESHOLD,
        cooldownMs: COOLDOWN_MS,
        now: () => breakerClock.ms,
      }),
    },
  });

  const search = (ctx: TenantContext, query: string, providers = ["brave", "duckduckgo"]) =>
    webSearch({ ctx, input: { query, providers, no_cache: true } });
  const requestsBy = (ctx: TenantContext) => async (provider: string) =>
    (await budgetStatus({ ctx })).providers.find((p) => p.provider === provider)?.requests.lifetime ?? 0;

  it("opens on repeated 5xx, skips the provider for free while open, and closes after it recovers", async () => {
    s.fake.setScenario("brave", { status: 503 });
    for (let i = 0; i < THRESHOLD; i++) {
      const result = await search(s.a, `failing ${i}`);
      expect(result.providers_failed).toEqual([
        expect.objectContaining({ provider: "brave", reason: "http_error" }),
      ]);
    }
    expect(s.fake.requests("brave")).toHaveLength(THRESHOLD);
    const charged = await requestsBy(s.a)("brave");

    const whileOpen = await search(s.a, "while open");
    expect(whileOpen.providers_failed).toEqual([
      expect.objectContaining({ provider: "brave", reason: "breaker_open" }),
    ]);
    expect(whileOpen.providers_succeeded.map((p) => p.provider)).toEqual(["duckduckgo"]);
    expect(s.fake.requests("brave")).toHaveLength(THRESHOLD); // no call went out
    expect(await requestsBy(s.a)("brave")).toBe(charged); // and nothing was charged
    await s.platform.traces.flush();
    const trace = await getTrace({ ctx: s.a, input: { id: whileOpen.trace_id } });
    expect(trace.spans.find((s) => s.provider === "brave")?.outcome).toBe("skipped_breaker");
    const status = await providerStatus({ ctx: s.a });
    expect(status.providers.find((p) => p.provider === "brave")?.breaker).toBe("open");

    s.fake.resetScenarios(); // the provider recovers
    breakerClock.ms += COOLDOWN_MS;
    const probe = await search(s.a, "after recovery");
    expect(probe.providers_succeeded.map((p) => p.provider).sort()).toEqual(["brave", "duckduckgo"]);
    expect((await providerStatus({ ctx: s.a })).providers.find((p) => p.provider === "brave")?.breaker).toBe(
      "closed",
    );
  });

  it("never opens on refused keys, and one tenant's bad key leaves other tenants alone", async () => {
    await setKey({ ctx: s.a, input: { provider: "tavily", key: "tvly-a-revoked-key" } });
    await setKey({ ctx: s.b, input: { provider: "tavily", key: "tvly-b-good-key" } });
    s.fake.setScenario("tavily", { expectedApiKey: "tvly-b-good-key" });
    for (let i = 0; i < THRESHOLD * 3; i++) {
      const result = await search(s.a, `bad key ${i}`, ["tavily", "duckduckgo"]);
      expect(result.providers_failed).toEqual([
        expect.objectContaining({ provider: "tavily", reason: "bad_key" }),
      ]);
    }
    expect(s.fake.requests("tavily")).toHaveLength(THRESHOLD * 3); // every call still went out
    const good = await search(s.b, "good key", ["tavily", "duckduckgo"]);
    expect(good.providers_succeeded.map((p) => p.provider).sort()).toEqual(["duckduckgo", "tavily"]);

    // A refused tenant key is marked invalid for the dashboard, without a key test.
    await expect
      .poll(
        async () =>
          (
            await s.a.db.withTenant(s.a.tenantId, (tx) =>
              tx
                .select({ status: providerKeys.status })
                .from(providerKeys)
                .where(eq(providerKeys.provider, "tavily")),
            )
          )[0]?.status,
      )
      .toBe("invalid");
    const status = await providerStatus({ ctx: s.a });
    expect(status.providers.find((p) => p.provider === "tavily")).toMatchObject({
      key_source: "tenant",
      key_status: "invalid",
      breaker: "closed",
    });
  });

  it("stops waiting on providers when the caller goes away", async () => {
    s.fake.setScenario("brave", { fault: "hang" });
    s.fake.clearRequests();
    const caller = new AbortController();
    const started = performance.now();
    // The caller leaves once brave's request is in flight and duckduckgo's attempt is over.
    let duckduckgoDone = () => {};
    const duckduckgoOver = new Promise<void>((resolve) => {
      duckduckgoDone = resolve;
    });
    void Promise.all([s.fake.seen("brave", "arrived"), duckduckgoOver]).then(() => caller.abort());
    const result = await webSearch({
      ctx: s.a,
      input: {
        query: "caller leaves",
        providers: ["brave", "duckduckgo"],
        no_cache: true,
        timeout_ms: 10_000,
      },
      onProgress: (event) => {
        if (event.provider === "duckduckgo") duckduckgoDone();
      },
      signal: caller.signal,
    });
    // The caller's leaving ended the hang (the fake sees brave's request given up), long before the 10 s
    // deadline: the bound is generous yet half of it.
    await s.fake.seen("brave", "aborted");
    expect(performance.now() - started).toBeLessThan(generous(150));
    expect(result.providers_failed).toEqual([expect.objectContaining({ provider: "brave" })]);
    expect(result.providers_succeeded.map((p) => p.provider)).toEqual(["duckduckgo"]);
  });

  it("reports each provider attempt live, and success rate and latency from the traces", async () => {
    const created = await createTenant({ ctx: systemCtx(s.platform), input: { name: "C" } });
    const c = tenantCtx(s.platform, created.id);
    s.fake.setScenario("brave", { status: 500 });
    s.fake.setScenario("duckduckgo", { latencyMs: 30 });
    const events: ProviderProgress[] = [];
    const result = await webSearch({
      ctx: c,
      input: { query: "live progress", providers: ["brave", "duckduckgo"], no_cache: true },
      onProgress: (event) => events.push(event),
    });
    expect(events.map((e) => [e.provider, e.outcome]).sort()).toEqual([
      ["brave", "error"],
      ["duckduckgo", "ok"],
    ]);
    expect(events.find((e) => e.provider === "duckduckgo")?.duration_ms).toBeGreaterThanOrEqual(30);

    const cached = await webSearch({
      ctx: c,
      input: { query: "live progress", providers: ["duckduckgo"] },
    });
    const hitEvents: ProviderProgress[] = [];
    await webSearch({
      ctx: c,
      input: { query: "live progress", providers: ["duckduckgo"] },
      onProgress: (event) => hitEvents.push(event),
    });
    // duckduckgo's answer to the first call was kept: the second is made of it, and is then cached whole.
    expect(cached.cache_hit).toBe(true);
    expect(cached.spans.map((span) => [span.provider, span.outcome])).toEqual([["duckduckgo", "cache_hit"]]);
    expect(hitEvents.map((e) => e.outcome)).toEqual(["cache_hit"]);

    await s.platform.traces.flush();
    const health = (await providerStatus({ ctx: c })).providers;
    const brave = health.find((p) => p.provider === "brave")?.health;
    const ddg = health.find((p) => p.provider === "duckduckgo")?.health;
    expect(brave).toMatchObject({ calls: 1, success_rate: 0, status: "failing" });
    // A closed breaker after one failure is no reason to call the provider healthy.
    expect(health.find((p) => p.provider === "brave")).toMatchObject({
      breaker: "closed",
      status: "failing",
    });
    expect(health.find((p) => p.provider === "duckduckgo")?.status).toBe("healthy");
    expect(health.find((p) => p.provider === "wikipedia")).toMatchObject({ health: null, status: "no_data" });
    // Kept answers are no calls: health counts what was sent.
    expect(ddg?.calls).toBe(1);
    expect(ddg?.success_rate).toBe(1);
    expect(ddg?.p50_ms).toBeGreaterThanOrEqual(0);
    expect(ddg?.p95_ms).toBeGreaterThanOrEqual(ddg?.p50_ms ?? 0);
    expect(result.trace_id).toBeTruthy();
  });
});
