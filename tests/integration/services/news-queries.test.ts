/**
 * web_search's topic news, `queries` (with and without merge) and `language` through the verb, on a real
 * database and the fake providers' news endpoints: who is asked and who is skipped, what each provider call
 * costs (one admission and one charge per call, none for a query whose answers are kept), the trace of
 * each query, the estimate, and the input refused.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { TenantContext } from "@/lib/pipeline/context";
import { budgetStatus } from "@/lib/services/budgets/budget-status";
import { setBudget } from "@/lib/services/budgets/set-budget";
import { webSearch } from "@/lib/services/search/web-search";
import { createTenant } from "@/lib/services/tenants/create-tenant";
import { getTrace } from "@/lib/services/traces/get-trace";
import { tools } from "@/lib/tools/table";
import { callTool } from "@/lib/tools/tool";
import { NEWS_WIRES } from "@/tests/fakes/news-wires";
import { primaryTarget } from "@/tests/support/database";
import { systemCtx, tenantCtx } from "@/tests/support/platform";
import { fakeBaseUrls, serviceSuite } from "@/tests/support/service-suite";

const BRAVE_USD = 0.005;

describe.each(primaryTarget())("web_search news, queries and language on $name", (target) => {
  const s = serviceSuite(target, {
    wires: NEWS_WIRES,
    env: (fake) => ({
      BRAVE_API_KEY: "operator-brave",
      SEARXNG_URL: fake.baseUrlFor("searxng"),
      ...fakeBaseUrls(fake, ["duckduckgo", "wikipedia", "brave"]),
    }),
  });

  async function workspace(): Promise<TenantContext> {
    const tenant = await createTenant({ ctx: systemCtx(s.platform), input: { name: `n-${randomUUID()}` } });
    const ctx = tenantCtx(s.platform, tenant.id);
    await setBudget({ ctx, input: { provider: "brave", metric: "requests", period: "day", limit: 100 } });
    return ctx;
  }

  async function braveUsed(ctx: TenantContext): Promise<number> {
    await ctx.usage.flush();
    const { budgets } = await budgetStatus({ ctx });
    return budgets.find((b) => b.provider === "brave")?.used ?? Number.NaN;
  }

  const calls = (id: string) => s.fake.requests(id).length;

  it("asks the providers with a news search, skips the others with the reason, and reads dates and publishers", async () => {
    const ctx = await workspace();
    const news = await webSearch({ ctx, input: { query: "election", topic: "news", mode: "fanout" } });
    expect(news.providers_skipped).toEqual([
      { provider: "duckduckgo", reason: "no_news_search" },
      { provider: "wikipedia", reason: "no_news_search" },
    ]);
    expect([calls("duckduckgo"), calls("wikipedia")]).toEqual([0, 0]);
    expect(s.fake.requests("brave").map((r) => r.path)).toEqual(["/res/v1/news/search"]);
    expect(s.fake.requests("searxng")[0]?.query.categories).toBe("news");
    expect(news.results[0]).toMatchObject({
      url: "https://news.example.com/story-1",
      publishedAt: "2026-03-01T08:00:00.000Z",
      source: "news.example.com",
    });

    // The topic is part of the cache key: the same words as a web search are a search of their own.
    const web = await webSearch({ ctx, input: { query: "election", mode: "fanout" } });
    expect(web.cache_hit).toBe(false);
    expect(s.fake.requests("brave").map((r) => r.path)).toEqual([
      "/res/v1/news/search",
      "/res/v1/web/search",
    ]);
    expect(
      (await webSearch({ ctx, input: { query: "election", topic: "news", mode: "fanout" } })).cache_hit,
    ).toBe(true);
  });

  it("refuses news from named providers that have no news search, before calling any", async () => {
    const ctx = await workspace();
    await expect(
      webSearch({ ctx, input: { query: "x", topic: "news", providers: ["wikipedia", "duckduckgo"] } }),
    ).rejects.toMatchObject({ code: "invalid_input", message: expect.stringContaining("has a news search") });
    expect([calls("wikipedia"), calls("duckduckgo")]).toEqual([0, 0]);
  });

  it("searches each of `queries` in one call, charging each provider call, and traces each query", async () => {
    const ctx = await workspace();
    const qs = ["alpha one", "beta two", "gamma three"];
    s.fake.setScenario("brave", {
      resultsFor: (q) => [{ title: q, url: `https://example.com/${q.replace(" ", "-")}`, snippet: q }],
    });
    const result = await webSearch({ ctx, input: { queries: qs, providers: ["brave", "duckduckgo"] } });
    expect(result.queries).toEqual(qs);
    expect(result.merged).toBe(false);
    expect(result.results).toEqual([]);
    expect(result.by_query?.map((q) => q.query)).toEqual(qs);
    expect(result.by_query?.map((q) => q.results.map((r) => r.url)[0])).toEqual([
      "https://example.com/alpha-one",
      "https://example.com/beta-two",
      "https://example.com/gamma-three",
    ]);
    expect(s.fake.requests("brave").map((r) => r.query.q)).toEqual(expect.arrayContaining(qs));
    expect(calls("brave")).toBe(3);
    expect(await braveUsed(ctx)).toBe(3);

    await s.platform.traces.flush();
    const trace = await getTrace({ ctx, input: { id: result.trace_id } });
    expect(trace.input).toMatchObject({ queries: qs, merge: false });
    expect((trace.summary as { by_query: Array<{ query: string }> }).by_query.map((q) => q.query)).toEqual(
      qs,
    );
    const braveSpans = trace.spans.filter((span) => span.provider === "brave");
    expect(braveSpans).toHaveLength(3);
    expect(braveSpans.map((span) => span.cost_usd)).toEqual([BRAVE_USD, BRAVE_USD, BRAVE_USD]);
    expect(trace.cost_usd).toBe(3 * BRAVE_USD);
  });

  it("merges the queries' lists into one fused list, pages found by several first", async () => {
    const ctx = await workspace();
    const shared = { title: "Shared", url: "https://example.com/shared", snippet: "both" };
    s.fake.setScenario("brave", {
      resultsFor: (q) => [{ title: q, url: `https://example.com/${q}`, snippet: q }, shared],
    });
    const result = await webSearch({
      ctx,
      input: { queries: ["one", "two"], merge: true, providers: ["brave"], max_results: 2 },
    });
    expect(result.merged).toBe(true);
    expect(result.results.map((r) => r.url)).toEqual([
      "https://example.com/shared",
      "https://example.com/one",
    ]);
    expect(result.results[0]?.sources).toEqual([{ provider: "brave", rank: 2 }]);
  });

  it("charges nothing for a query whose providers' answers are kept from an earlier search", async () => {
    const ctx = await workspace();
    await webSearch({ ctx, input: { query: "kept words", providers: ["brave"] } });
    expect(await braveUsed(ctx)).toBe(1);
    const both = await webSearch({
      ctx,
      input: { queries: ["kept words", "new words"], providers: ["brave"] },
    });
    expect(both.by_query?.map((q) => q.results.length)).toEqual([3, 3]);
    expect(s.fake.requests("brave").map((r) => r.query.q)).toEqual(["kept words", "new words"]);
    expect(await braveUsed(ctx)).toBe(2);
  });

  it("estimates every query's calls", async () => {
    const ctx = await workspace();
    const estimate = (input: Record<string, unknown>) =>
      callTool(tools.web_search, ctx, { ...input, providers: ["brave"], estimate: true }, {});
    expect((await estimate({ query: "one" })).response).toMatchObject({
      estimate: { providers: ["brave"], max_cost_usd: 0.005 },
    });
    expect((await estimate({ queries: ["a", "b", "c"] })).response).toMatchObject({
      estimate: { providers: ["brave"], max_cost_usd: 0.015 },
    });
    expect(calls("brave")).toBe(0);
  });

  it("refuses queries out of bounds, together with query, and merge without them", async () => {
    const ctx = await workspace();
    const refused = [
      { queries: [] },
      { queries: ["1", "2", "3", "4", "5", "6"] },
      { query: "q", queries: ["q"] },
      {},
      { query: "q", merge: true },
      { queries: ["a", "b"], include_content: true },
      { query: "q", language: "zz" },
      { query: "q", language: "jp" },
      { query: "q", topic: "images" },
    ];
    for (const input of refused) {
      await expect(webSearch({ ctx, input: input as never }), JSON.stringify(input)).rejects.toMatchObject({
        code: "invalid_input",
      });
    }
    expect(s.fake.requests("brave")).toEqual([]);
    const five = await webSearch({
      ctx,
      input: { queries: ["1", "2", "3", "4", "5"], providers: ["brave"] },
    });
    expect(five.by_query).toHaveLength(5);
  });

  it("sends the language and keys the cache by it", async () => {
    const ctx = await workspace();
    await webSearch({ ctx, input: { query: "wetter", language: "DE", providers: ["brave"] } });
    const again = await webSearch({ ctx, input: { query: "wetter", language: "fr", providers: ["brave"] } });
    expect(again.cache_hit).toBe(false);
    expect(s.fake.requests("brave").map((r) => r.query.search_lang)).toEqual(["de", "fr"]);
  });
});
