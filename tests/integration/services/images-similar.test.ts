/**
 * image_search and similar as a tenant calls them, on PGlite and PostgreSQL, providers faked at the HTTP
 * boundary: keys of the workspace, safesearch skips, charges and budgets, cache and traces, estimates, and
 * each line of the threat models in docs/tools.md (scopes, refused URLs, nothing sent or charged for what
 * is refused, no other workspace's keys).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reservations } from "@/lib/db/schema";
import { budgetStatus } from "@/lib/services/budgets/budget-status";
import { setBudget } from "@/lib/services/budgets/set-budget";
import { estimateImageSearch } from "@/lib/services/images/estimate-image-search";
import { imageSearch } from "@/lib/services/images/image-search";
import { setKey } from "@/lib/services/keys/set-key";
import { estimateSimilar } from "@/lib/services/similar/estimate-similar";
import { similar } from "@/lib/services/similar/similar";
import { getTrace } from "@/lib/services/traces/get-trace";
import { IMAGE_WIRES, imageWireId } from "@/tests/fakes/image-wires";
import { type ArticleSite, startArticleSite } from "@/tests/support/article-site";
import { primaryTarget } from "@/tests/support/database";
import { fakeBaseUrls, serviceSuite } from "@/tests/support/service-suite";

describe.each(primaryTarget())("image_search and similar for a tenant on $name", (target) => {
  const s = serviceSuite(target, {
    wires: IMAGE_WIRES,
    env: (fake) => ({
      SEARCHMUX_FETCH_ALLOWLIST: "127.0.0.1",
      BRAVE_BASE_URL: fake.baseUrlFor(imageWireId("brave")),
      SERPAPI_BASE_URL: fake.baseUrlFor(imageWireId("serpapi")),
      SERPER_BASE_URL: fake.baseUrlFor(imageWireId("serper")),
      TAVILY_BASE_URL: fake.baseUrlFor(imageWireId("tavily")),
      EXA_BASE_URL: fake.baseUrlFor("similar-exa"),
      ...fakeBaseUrls(fake, ["duckduckgo", "wikipedia"]),
    }),
  });
  let site: ArticleSite;
  const requestsBy = async (ctx: typeof s.a, provider: string) =>
    (await budgetStatus({ ctx })).providers.find((p) => p.provider === provider)?.requests.lifetime ?? 0;
  const reservationsOf = (ctx: typeof s.a) =>
    ctx.db.withTenant(ctx.tenantId, (tx) => tx.select().from(reservations));

  beforeAll(async () => {
    site = await startArticleSite(
      "Sourdough starter care",
      "Feed the sourdough starter flour and water daily; a healthy starter doubles and smells sour.",
    );
    for (const [provider, key] of [
      ["brave", "brave-key-tenant-a"],
      ["serpapi", "serpapi-key-tenant-a"],
      ["serper", "serper-key-tenant-a"],
      ["exa", "exa-key-tenant-a"],
    ] as const) {
      await setKey({ ctx: s.a, input: { provider, key } });
    }
  });
  afterAll(() => site?.close());

  it("searches images with the workspace's keys, strict by default, skipping and not charging Serper", async () => {
    const result = await imageSearch({ ctx: s.a, input: { query: "sourdough bread" } });
    expect(result.results[0]).toMatchObject({
      image_url: "https://images.example.com/photo-1.jpg",
      sources: [
        { provider: "brave", rank: 1 },
        { provider: "serpapi", rank: 1 },
      ],
    });
    expect(result.providers_skipped).toEqual([{ provider: "serper", reason: "safesearch" }]);
    expect(s.fake.requests(imageWireId("brave"))[0]).toMatchObject({
      query: { safesearch: "strict" },
      headers: { "x-subscription-token": "brave-key-tenant-a" },
    });
    expect(s.fake.requests(imageWireId("serper"))).toEqual([]);
    expect(await requestsBy(s.a, "brave")).toBe(1);
    expect(await requestsBy(s.a, "serper")).toBe(0);

    const again = await imageSearch({ ctx: s.a, input: { query: "sourdough bread" } });
    expect(again.cache_hit).toBe(true);
    expect(s.fake.requests(imageWireId("brave"))).toHaveLength(1);

    await s.platform.traces.flush();
    const trace = await getTrace({ ctx: s.a, input: { id: result.trace_id } });
    expect(trace).toMatchObject({ tool: "image_search" });
    expect(trace.spans.map((span) => span.provider).sort()).toEqual(["brave", "serpapi"]);
  });

  it("asks Serper with safesearch off, and refuses strict when only Serper is asked, sending nothing", async () => {
    const off = await imageSearch({
      ctx: s.a,
      input: { query: "rye loaf", safesearch: "off", providers: ["serper"] },
    });
    expect(off.providers_succeeded.map((p) => p.provider)).toEqual(["serper"]);
    s.fake.clearRequests();
    const reserved = (await reservationsOf(s.a)).length;
    await expect(
      imageSearch({ ctx: s.a, input: { query: "rye loaf 2", providers: ["serper"] } }),
    ).rejects.toMatchObject({ code: "invalid_input", message: expect.stringMatching(/safesearch "strict"/) });
    await expect(
      estimateImageSearch({ ctx: s.a, input: { query: "rye loaf 2", providers: ["serper"] } }),
    ).rejects.toMatchObject({ code: "invalid_input" });
    expect(s.fake.requests(imageWireId("serper"))).toEqual([]);
    expect(await reservationsOf(s.a)).toHaveLength(reserved);
  });

  it("estimates the providers that can apply the level, with their prices", async () => {
    const strict = await estimateImageSearch({ ctx: s.a, input: { query: "x" } });
    expect(strict.providers.sort()).toEqual(["brave", "serpapi"]);
    expect(strict.maxCostMicros).toBe(5_000 + 15_000);
    const off = await estimateImageSearch({ ctx: s.a, input: { query: "x", safesearch: "off" } });
    expect(off.providers.sort()).toEqual(["brave", "serpapi", "serper"]);
  });

  it("stops at a spent budget: the refused provider is skipped as budget and not charged", async () => {
    await setBudget({
      ctx: s.a,
      input: { provider: "serpapi", metric: "requests", period: "lifetime", limit: 0 },
    });
    const result = await imageSearch({ ctx: s.a, input: { query: "baguette", no_cache: true } });
    expect(result.providers_skipped).toEqual(
      expect.arrayContaining([
        { provider: "serpapi", reason: "budget" },
        { provider: "serper", reason: "safesearch" },
      ]),
    );
    expect(result.providers_succeeded.map((p) => p.provider)).toEqual(["brave"]);
    await setBudget({
      ctx: s.a,
      input: { provider: "brave", metric: "requests", period: "lifetime", limit: 0 },
    });
    await expect(imageSearch({ ctx: s.a, input: { query: "ciabatta" } })).rejects.toMatchObject({
      code: "budget_exhausted",
    });
    await setBudget({
      ctx: s.a,
      input: { provider: "brave", metric: "requests", period: "lifetime", limit: 1e6 },
    });
    await setBudget({
      ctx: s.a,
      input: { provider: "serpapi", metric: "requests", period: "lifetime", limit: 1e6 },
    });
  });

  it("uses no other workspace's keys: B has no image provider, and a token without search is refused", async () => {
    await expect(imageSearch({ ctx: s.b, input: { query: "bread" } })).rejects.toMatchObject({
      code: "no_provider_configured",
    });
    await expect(imageSearch({ ctx: s.b, input: { query: "bread", providers: ["brave"] } })).rejects.toThrow(
      /not available without a key: brave/,
    );
    await expect(
      imageSearch({ ctx: { ...s.a, scopes: ["fetch"] }, input: { query: "bread" } }),
    ).rejects.toMatchObject({ code: "forbidden" });
    await expect(
      imageSearch({ ctx: s.a, input: { query: "bread", bogus: 1 } as never }),
    ).rejects.toMatchObject({
      code: "invalid_input",
    });
    expect(s.fake.requests(imageWireId("brave"))).toEqual([]);
  });

  it("finds similar pages with Exa where the workspace has its key: charged once, cached, the page left out", async () => {
    s.fake.setScenario("similar-exa", {
      payload: [
        { title: "Itself", url: `${site.origin}/starter`, snippet: "the page" },
        { title: "Starter tips", url: "https://bakers.example.org/tips", snippet: "Tips" },
      ],
    });
    const result = await similar({ ctx: s.a, input: { url: `${site.origin}/starter`, max_results: 5 } });
    expect(result).toMatchObject({ method: "exa", query: null });
    expect(result.results.map((r) => r.url)).toEqual(["https://bakers.example.org/tips"]);
    expect(s.fake.requests("similar-exa")[0]?.headers["x-api-key"]).toBe("exa-key-tenant-a");
    expect(await requestsBy(s.a, "exa")).toBe(1);
    const again = await similar({ ctx: s.a, input: { url: `${site.origin}/starter`, max_results: 5 } });
    expect(again.cache_hit).toBe(true);
    expect(s.fake.requests("similar-exa")).toHaveLength(1);
    expect((await estimateSimilar({ ctx: s.a, input: { url: `${site.origin}/starter` } })).providers).toEqual(
      ["exa"],
    );
  });

  it("without Exa, reads the page and searches its title and key terms, leaving the page itself out", async () => {
    const page = `${site.origin}/starter`;
    s.fake.setScenario("duckduckgo", {
      results: [
        { title: "Sourdough starter care", url: page, snippet: "The page itself" },
        { title: "Levain basics", url: "https://levain.example.net/basics", snippet: "Starter feeding" },
      ],
    });
    s.fake.setScenario("wikipedia", { results: [] });
    const result = await similar({ ctx: s.b, input: { url: page } });
    expect(result.method).toBe("search");
    expect(result.query).toMatch(/^Sourdough starter care .*(feed|flour|water)/);
    expect(s.fake.requests("duckduckgo")[0]?.body).toMatchObject({ q: result.query });
    expect(result.results.map((r) => r.url)).toEqual(["https://levain.example.net/basics"]);
    expect(s.fake.requests("similar-exa")).toEqual([]);
    const estimate = await estimateSimilar({ ctx: s.b, input: { url: page } });
    expect(estimate.providers).toEqual(expect.arrayContaining(["direct", "duckduckgo"]));
  });

  it("refuses a private or internal URL with the fetch path's reason, sending nothing on either way", async () => {
    for (const ctx of [s.a, s.b]) {
      for (const url of ["http://10.0.0.7/admin", "http://localhost/x", "http://169.254.169.254/latest"]) {
        await expect(similar({ ctx, input: { url } })).rejects.toMatchObject({
          code: "invalid_input",
          message: expect.stringMatching(/^url refused: /),
        });
      }
    }
    expect(s.fake.requests("similar-exa")).toEqual([]);
    expect(s.fake.requests("duckduckgo")).toEqual([]);
    await expect(similar({ ctx: s.a, input: { url: "not a url" } })).rejects.toMatchObject({
      code: "invalid_input",
    });
  });

  it("needs the fetch scope to read the page when it falls back to a search", async () => {
    await expect(
      similar({ ctx: { ...s.b, scopes: ["search"] }, input: { url: `${site.origin}/starter` } }),
    ).rejects.toMatchObject({ code: "forbidden", message: expect.stringMatching(/'fetch' scope/) });
    await expect(
      similar({ ctx: { ...s.a, scopes: ["fetch"] }, input: { url: `${site.origin}/starter` } }),
    ).rejects.toMatchObject({ code: "forbidden" });
  });
});
