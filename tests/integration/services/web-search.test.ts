import { beforeAll, describe, expect, it } from "vitest";
import { keyId } from "@/lib/pipeline/rate-limit/provider-pause";
import { budgetStatus } from "@/lib/services/budgets/budget-status";
import { setBudget } from "@/lib/services/budgets/set-budget";
import { listKeys } from "@/lib/services/keys/list-keys";
import { setKey } from "@/lib/services/keys/set-key";
import { testKey } from "@/lib/services/keys/test-key";
import { webSearch } from "@/lib/services/search/web-search";
import { createTenant } from "@/lib/services/tenants/create-tenant";
import { primaryTarget } from "@/tests/support/database";
import { systemCtx, tenantCtx } from "@/tests/support/platform";
import { fakeBaseUrls, serviceSuite } from "@/tests/support/service-suite";

describe.each(primaryTarget())("webSearch for a tenant on $name", (target) => {
  // Every provider's base URL points at the fake server; the operator has a Brave key only.
  const s = serviceSuite(target, {
    env: (fake) => ({
      BRAVE_API_KEY: "operator-brave",
      SEARXNG_URL: fake.baseUrlFor("searxng"),
      ...fakeBaseUrls(fake, ["duckduckgo", "wikipedia", "tavily", "brave", "exa"]),
    }),
  });
  beforeAll(async () => {
    await setKey({ ctx: s.a, input: { provider: "tavily", key: "tvly-tenant-a-secret" } });
    await setKey({ ctx: s.b, input: { provider: "tavily", key: "tvly-tenant-b-secret" } });
  });

  it("fans out to keyless, operator-keyed and tenant-keyed providers and fuses", async () => {
    const result = await webSearch({ ctx: s.a, input: { query: "fusion test" } });
    expect(result.cache_hit).toBe(false);
    expect(result.providers_succeeded.map((p) => p.provider).sort()).toEqual([
      "brave",
      "duckduckgo",
      "searxng",
      "tavily",
      "wikipedia",
    ]);
    expect(s.fake.requests("tavily")[0]?.headers.authorization).toBe("Bearer tvly-tenant-a-secret");
    expect(s.fake.requests("brave")[0]?.headers["x-subscription-token"]).toBe("operator-brave");
    expect(s.fake.requests("exa")).toHaveLength(0); // no key anywhere
    expect(result.results[0]?.sources.length).toBeGreaterThan(1);
  });

  it("serves a repeat from the cache for free, but never to another tenant", async () => {
    const input = { query: "cache isolation", providers: ["tavily", "duckduckgo"] };
    const first = await webSearch({ ctx: s.a, input });
    const again = await webSearch({ ctx: s.a, input });
    expect([first.cache_hit, again.cache_hit]).toEqual([false, true]);
    expect(again.results).toEqual(first.results);
    expect(s.fake.requests("tavily")).toHaveLength(1);

    const other = await webSearch({ ctx: s.b, input });
    expect(other.cache_hit).toBe(false);
    expect(s.fake.requests("tavily").map((r) => r.headers.authorization)).toEqual([
      "Bearer tvly-tenant-a-secret",
      "Bearer tvly-tenant-b-secret",
    ]);
    const bypass = await webSearch({ ctx: s.a, input: { ...input, no_cache: true } });
    expect(bypass.cache_hit).toBe(false);
  });

  it("does not cache a partial fan-out whole: a repeat asks the failed provider again, and only it", async () => {
    s.fake.setScenario("brave", { status: 503 });
    const input = { query: "partial", providers: ["brave", "duckduckgo"] };
    const first = await webSearch({ ctx: s.a, input });
    expect(first.providers_failed).toEqual([
      expect.objectContaining({ provider: "brave", reason: "http_error", status: 503 }),
    ]);
    const repeat = await webSearch({ ctx: s.a, input });
    expect(repeat.partial).toBe(true);
    expect(s.fake.requests("brave")).toHaveLength(2);
    expect(s.fake.requests("duckduckgo")).toHaveLength(1);
  });

  it("skips a provider whose budget is exhausted and goes on with the rest", async () => {
    const ctx = tenantCtx(
      s.platform,
      (await createTenant({ ctx: systemCtx(s.platform), input: { name: "capped" } })).id,
    );
    await setBudget({ ctx, input: { provider: "brave", metric: "requests", period: "day", limit: 1 } });
    await webSearch({ ctx, input: { query: "one", providers: ["brave", "duckduckgo"] } });
    const second = await webSearch({ ctx, input: { query: "two", providers: ["brave", "duckduckgo"] } });
    expect(second.providers_failed).toEqual([
      expect.objectContaining({ provider: "brave", reason: "budget_exhausted" }),
    ]);
    expect(second.providers_succeeded.map((p) => p.provider)).toEqual(["duckduckgo"]);
    expect(s.fake.requests("brave")).toHaveLength(1);

    const refused = webSearch({ ctx, input: { query: "three", providers: ["brave"] } });
    await expect(refused).rejects.toMatchObject({ code: "budget_exhausted" });
    await expect(refused).rejects.toThrow(
      /brave: requests per day limit reached \(resets \d{4}-\d\d-\d\dT00:00:00\.000Z\)/,
    );
  });

  it("answers 402 naming each exhausted budget once when budgets refused some providers and the rest failed", async () => {
    const ctx = tenantCtx(
      s.platform,
      (await createTenant({ ctx: systemCtx(s.platform), input: { name: "mixed" } })).id,
    );
    // Nothing left across all providers today: brave and tavily are refused by the same `*` budget, and
    // duckduckgo (keyless, free) is asked but fails.
    await setBudget({ ctx, input: { provider: "*", metric: "usd", period: "day", limit: 0 } });
    await setKey({ ctx, input: { provider: "tavily", key: "tvly-mixed-secret" } });
    s.fake.setScenario("duckduckgo", { status: 500 });
    const refused = webSearch({
      ctx,
      input: { query: "mixed refusal", providers: ["brave", "tavily", "duckduckgo"] },
    });
    await expect(refused).rejects.toMatchObject({
      code: "budget_exhausted",
      details: {
        exhausted: [expect.objectContaining({ kind: "budget", provider: "*", metric: "usd", period: "day" })],
        providers_failed: expect.arrayContaining([
          { provider: "brave", reason: "budget_exhausted" },
          { provider: "tavily", reason: "budget_exhausted" },
          { provider: "duckduckgo", reason: "http_error" },
        ]),
      },
    });
    const message = await refused.then(
      () => "",
      (error: Error) => error.message,
    );
    expect(message.match(/all providers: usd per day limit reached/g)).toHaveLength(1);
    expect(message).toContain("the other providers failed (duckduckgo: http_error)");
    expect(s.fake.requests("brave")).toHaveLength(0);
    expect(s.fake.requests("tavily")).toHaveLength(0);

    // With nothing refused, the same failures are a 502 as before.
    s.fake.setScenario("brave", { status: 500 });
    await expect(
      webSearch({ ctx: s.a, input: { query: "all failed", providers: ["brave", "duckduckgo"] } }),
    ).rejects.toMatchObject({ code: "all_providers_failed" });
  });

  it("refunds calls a provider does not bill (bad key, 429) and keeps timeouts and answers", async () => {
    const ctx = tenantCtx(
      s.platform,
      (await createTenant({ ctx: systemCtx(s.platform), input: { name: "refunds" } })).id,
    );
    s.fake.setScenario("brave", { status: 401 });
    await expect(webSearch({ ctx, input: { query: "x", providers: ["brave"] } })).rejects.toMatchObject({
      code: "all_providers_failed",
    });
    s.fake.setScenario("brave", { status: 429, retryAfter: "30" });
    await expect(webSearch({ ctx, input: { query: "y", providers: ["brave"] } })).rejects.toThrow(
      /brave: rate_limited/,
    );
    s.fake.resetScenarios();
    // The 429 paused the key for 30 s: a call meanwhile skips it, sending and charging nothing.
    await expect(webSearch({ ctx, input: { query: "y2", providers: ["brave"] } })).rejects.toThrow(
      /brave: rate_limited/,
    );
    expect(s.fake.requests("brave")).toHaveLength(2);
    await ctx.kv.del(`smx:pause:${keyId("brave", "operator-brave")}`); // as if the 30 s had passed
    await webSearch({ ctx, input: { query: "z", providers: ["brave"] } });
    const status = await budgetStatus({ ctx });
    expect(status.providers.find((p) => p.provider === "brave")?.requests.lifetime).toBe(1);
  });

  it("tests a stored key with one call and records ok, invalid or unknown", async () => {
    s.fake.setScenario("tavily", { expectedApiKey: "tvly-tenant-a-secret" });
    expect(await testKey({ ctx: s.a, input: { provider: "tavily" } })).toMatchObject({ status: "ok" });
    s.fake.setScenario("tavily", { expectedApiKey: "something-else" });
    expect(await testKey({ ctx: s.a, input: { provider: "tavily" } })).toMatchObject({
      status: "invalid",
      reason: "bad_key",
    });
    s.fake.setScenario("tavily", { status: 503 });
    expect(await testKey({ ctx: s.a, input: { provider: "tavily" } })).toMatchObject({
      status: "unknown",
      reason: "http_error",
    });
    const keys = await listKeys({ ctx: s.a });
    expect(keys.find((k) => k.provider === "tavily")).toMatchObject({
      status: "unknown",
      checkedAt: expect.any(Date),
    });
    await expect(testKey({ ctx: s.a, input: { provider: "exa" } })).rejects.toMatchObject({
      code: "not_found",
    });
  });

  it("rejects unknown providers and providers without a key", async () => {
    await expect(webSearch({ ctx: s.a, input: { query: "q", providers: ["nope"] } })).rejects.toMatchObject({
      code: "invalid_input",
    });
    await expect(webSearch({ ctx: s.a, input: { query: "q", providers: ["exa"] } })).rejects.toThrow(
      /not available without a key: exa/,
    );
    await expect(
      webSearch({ ctx: { ...s.a, scopes: ["fetch"] }, input: { query: "q" } }),
    ).rejects.toMatchObject({ code: "forbidden" });
  });
});
