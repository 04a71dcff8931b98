/**
 * Topic news and `language` per search adapter, against the providers' news endpoints on the fake server
 * (tests/fakes/news-wires.ts): the news request each sends (endpoint, parameters, credential), what it reads
 * back (ISO dates, publisher), which adapters have no news search, and how each spells a language.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ProviderResponse } from "@/lib/engine/search/types";
import { getSearchProvider, searchProviders } from "@/lib/providers/search";
import { publishedDate } from "@/lib/providers/search/dates";
import { marketLanguage } from "@/lib/providers/search/market-codes";
import { searxngLanguage } from "@/lib/providers/search/searxng";
import { NEWS_RESULTS, NEWS_WIRES } from "@/tests/fakes/news-wires";
import { providerCall } from "@/tests/fakes/provider-call";
import { type FakeProviders, type RecordedRequest, startFakeProviders } from "@/tests/fakes/provider-server";

const KEY = "sk-news-0123456789";
const NEWS = { options: { topic: "news" as const, maxResults: 10 }, apiKey: KEY };

let fake: FakeProviders;
beforeAll(async () => {
  fake = await startFakeProviders(NEWS_WIRES);
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => {
  fake.clearRequests();
  fake.resetScenarios();
});

async function newsOf(id: string, overrides: Parameters<typeof providerCall>[1] = NEWS) {
  const provider = getSearchProvider(id);
  if (!provider?.news) throw new Error(`${id} has no news search`);
  const response = await provider.news(providerCall(fake.baseUrlFor(id), overrides));
  const [request] = fake.requests(id);
  if (!request) throw new Error(`${id} sent nothing`);
  return { response, request };
}

const bodyOf = (request: RecordedRequest) => request.body as Record<string, unknown>;

/** Each news provider: where its news search goes, with what, and how its answer reads. */
const NEWS_REQUESTS: Record<string, (request: RecordedRequest) => void> = {
  brave: (r) => {
    expect([r.method, r.path]).toEqual(["GET", "/res/v1/news/search"]);
    expect(r.headers["x-subscription-token"]).toBe(KEY);
    expect(r.query).toMatchObject({ q: "rust async runtime", count: "10" });
  },
  serper: (r) => {
    expect([r.method, r.path]).toEqual(["POST", "/news"]);
    expect(r.headers["x-api-key"]).toBe(KEY);
    expect(bodyOf(r)).toMatchObject({ q: "rust async runtime", num: 10 });
  },
  serpapi: (r) => {
    expect([r.method, r.path]).toEqual(["GET", "/search.json"]);
    expect(r.query).toMatchObject({ engine: "google", tbm: "nws", api_key: KEY, q: "rust async runtime" });
  },
  tavily: (r) => {
    expect([r.method, r.path]).toEqual(["POST", "/search"]);
    expect(r.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(bodyOf(r)).toMatchObject({ query: "rust async runtime", topic: "news" });
  },
  exa: (r) => {
    expect([r.method, r.path]).toEqual(["POST", "/search"]);
    expect(r.headers["x-api-key"]).toBe(KEY);
    expect(bodyOf(r)).toMatchObject({ query: "rust async runtime", category: "news" });
  },
  you: (r) => {
    expect([r.method, r.path]).toEqual(["GET", "/v1/search"]);
    expect(r.headers["x-api-key"]).toBe(KEY);
    expect(r.query).toMatchObject({ query: "rust async runtime" });
  },
  searxng: (r) => {
    expect([r.method, r.path]).toEqual(["GET", "/search"]);
    expect(r.query).toMatchObject({ q: "rust async runtime", format: "json", categories: "news" });
  },
  firecrawl: (r) => {
    expect([r.method, r.path]).toEqual(["POST", "/v2/search"]);
    expect(r.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(bodyOf(r)).toMatchObject({ query: "rust async runtime", sources: ["news"] });
  },
};

/** Google-backed and Firecrawl news say "N hours ago": read from now, never in the future. */
const RELATIVE_DATES = new Set(["serper", "serpapi", "firecrawl"]);
/** Those that name the publisher (Brave only its host). */
const PUBLISHER: Record<string, (n: number) => string> = {
  serper: (n) => `Example Times ${n}`,
  serpapi: (n) => `Example Times ${n}`,
  brave: () => "news.example.com",
};

describe("news search", () => {
  it("is offered by exactly the providers with a documented news mode", () => {
    const withNews = searchProviders.filter((p) => p.news).map((p) => p.id);
    expect(withNews.sort()).toEqual(Object.keys(NEWS_REQUESTS).sort());
    // No news search: DuckDuckGo's needs an undocumented token flow, the others have none.
    const without = searchProviders.filter((p) => !p.news).map((p) => p.id);
    expect(without.sort()).toEqual(["duckduckgo", "jina", "kagi", "linkup", "perplexity", "wikipedia"]);
  });

  for (const [id, expectRequest] of Object.entries(NEWS_REQUESTS)) {
    it(`${id}: sends its news request and reads dates and publishers`, async () => {
      const before = Date.now();
      const { response, request } = await newsOf(id);
      expectRequest(request);
      expect(response.results.map((r) => r.url)).toEqual(NEWS_RESULTS.map((r) => r.url));
      for (const [i, result] of response.results.entries()) {
        const published = Date.parse(result.publishedAt ?? "");
        expect(result.publishedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/);
        if (RELATIVE_DATES.has(id)) {
          expect(published).toBeLessThanOrEqual(Date.now() - (i + 2) * 3_600_000 + 1_000);
          expect(published).toBeGreaterThanOrEqual(before - (i + 2) * 3_600_000 - 1_000);
        } else {
          expect(published).toBe(Date.parse(NEWS_RESULTS[i]?.publishedAt ?? ""));
        }
        expect(result.source).toBe(PUBLISHER[id]?.(i + 1));
      }
    });
  }

  it("a web search of the same providers still reads the web answer", async () => {
    const response: ProviderResponse | undefined = await getSearchProvider("serpapi")?.search(
      providerCall(fake.baseUrlFor("serpapi"), { apiKey: KEY }),
    );
    const [request] = fake.requests("serpapi");
    expect(request?.query.tbm).toBeUndefined();
    expect(response?.results.map((r) => r.url)).toEqual(
      [1, 2, 3].map((n) => `https://example.com/result-${n}`),
    );
  });

  it("applies time_range to news as to the web", async () => {
    const week = { ...NEWS, options: { ...NEWS.options, timeRange: "week" as const } };
    expect((await newsOf("brave", week)).request.query.freshness).toBe("pw");
    expect(bodyOf((await newsOf("serper", week)).request).tbs).toBe("qdr:w");
    expect(bodyOf((await newsOf("tavily", week)).request).time_range).toBe("week");
  });
});

describe("language", () => {
  const german = (extra: Record<string, unknown> = {}) => ({
    apiKey: KEY,
    options: { topic: "general" as const, maxResults: 10, language: "de", ...extra },
  });

  async function webRequest(id: string, overrides = german()) {
    const provider = getSearchProvider(id);
    await provider?.search(providerCall(fake.baseUrlFor(id), overrides));
    const [request] = fake.requests(id);
    if (!request) throw new Error(`${id} sent nothing`);
    return request;
  }

  it("is sent where the provider has a parameter for it", async () => {
    expect((await webRequest("brave")).query.search_lang).toBe("de");
    expect(bodyOf(await webRequest("serper")).hl).toBe("de");
    expect((await webRequest("serpapi")).query.hl).toBe("de");
    expect((await webRequest("you")).query.language).toBe("DE");
    expect((await webRequest("searxng")).query.language).toBe("de");
    expect(bodyOf(await webRequest("jina")).hl).toBe("de");
    expect(bodyOf(await webRequest("perplexity")).search_language_filter).toEqual(["de"]);
  });

  it("is a preference: providers without a parameter run without it", async () => {
    for (const id of ["tavily", "exa", "kagi", "linkup", "firecrawl", "duckduckgo"]) {
      const request = await webRequest(id);
      expect(JSON.stringify({ query: request.query, body: request.body })).not.toMatch(/"de"|"DE"|de-/);
    }
  });

  it("picks Wikipedia's language edition over the region's", async () => {
    const provider = getSearchProvider("wikipedia");
    const response = await provider?.search(
      providerCall(fake.baseUrlFor("wikipedia"), german({ region: "ch", language: "fr" })),
    );
    expect(response?.results[0]?.url).toMatch(/^https:\/\/fr\.wikipedia\.org\/wiki\//);
  });

  it("maps to Brave's own codes and leaves out what Brave does not list", () => {
    expect(marketLanguage("ja", undefined)).toBe("jp");
    expect(marketLanguage("zh", "tw")).toBe("zh-hant");
    expect(marketLanguage("zh", undefined)).toBe("zh-hans");
    expect(marketLanguage("pt", "br")).toBe("pt-br");
    expect(marketLanguage("pt", "pt")).toBe("pt-pt");
    expect(marketLanguage("no", undefined)).toBe("nb");
    expect(marketLanguage("sw", undefined)).toBeUndefined();
    expect(marketLanguage(undefined, "de")).toBeUndefined();
  });

  it("joins the region in SearXNG's spelling, and falls back to the region's language", () => {
    expect(searxngLanguage("fr", "ch")).toBe("fr-CH");
    expect(searxngLanguage("fr", undefined)).toBe("fr");
    expect(searxngLanguage(undefined, "de")).toBe("de-DE");
    expect(searxngLanguage(undefined, undefined)).toBeUndefined();
  });
});

describe("publishedDate", () => {
  const now = new Date("2026-03-10T12:00:00Z");
  it("reads what providers write, and keeps what it cannot read", () => {
    expect(publishedDate("2026-03-01T08:00:00Z", now)).toBe("2026-03-01T08:00:00Z");
    expect(publishedDate("2026-03-01T08:00:00", now)).toBe("2026-03-01T08:00:00.000Z");
    expect(publishedDate("3 hours ago", now)).toBe("2026-03-10T09:00:00.000Z");
    expect(publishedDate("a day ago", now)).toBe("2026-03-09T12:00:00.000Z");
    expect(publishedDate("Sun, 01 Mar 2026 08:00:00 GMT", now)).toBe("2026-03-01T08:00:00.000Z");
    expect(publishedDate("last spring", now)).toBe("last spring");
  });
});
