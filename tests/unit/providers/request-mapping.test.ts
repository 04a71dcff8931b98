/**
 * What each adapter puts on the wire for one call that uses every option and operator: native parameters
 * where the provider has them, operators rebuilt into the query text where it understands them.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getSearchProvider } from "@/lib/providers/search";
import { providerCall } from "@/tests/fakes/provider-call";
import {
  type FakeProviderId,
  type FakeProviders,
  type RecordedRequest,
  startFakeProviders,
} from "@/tests/fakes/provider-server";

const KEY = "sk-test-0123456789";
const WEEK_AGO = new Date(Date.now() - 7 * 86_400_000).toISOString().slice(0, 10);

/** terms keep the phrase unquoted (operators.ts contract); intitle/filetype/sites are split out. */
const RICH = {
  query: {
    raw: 'rust "async runtime" intitle:tokio filetype:pdf site:docs.rs',
    terms: "rust async runtime",
    phrases: ["async runtime"],
    intitle: ["tokio"],
    filetype: "pdf",
    sites: ["docs.rs"],
  },
  options: {
    maxResults: 7,
    timeRange: "week" as const,
    region: "de",
    safesearch: "strict" as const,
    includeDomains: ["docs.rs", "github.com"],
    excludeDomains: ["pinterest.com"],
  },
  apiKey: KEY,
};
const ALL_OPERATORS =
  'rust "async runtime" intitle:tokio site:docs.rs OR site:github.com -site:pinterest.com filetype:pdf';
const PLAIN = "rust async runtime tokio";

let fake: FakeProviders;
beforeAll(async () => {
  fake = await startFakeProviders();
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => {
  fake.clearRequests();
});

async function sent(
  id: FakeProviderId,
  overrides: Parameters<typeof providerCall>[1] = RICH,
): Promise<RecordedRequest> {
  const provider = getSearchProvider(id);
  if (!provider) throw new Error(`no adapter ${id}`);
  await provider.search(providerCall(fake.baseUrlFor(id), overrides));
  const [request] = fake.requests(id);
  if (!request) throw new Error(`${id} sent nothing`);
  return request;
}

describe("request mapping for a call with every option", () => {
  it("tavily: native domains, time_range and country name", async () => {
    const request = await sent("tavily");
    expect(request.body).toEqual({
      query: PLAIN,
      max_results: 7,
      search_depth: "basic",
      topic: "general",
      include_domains: ["docs.rs", "github.com"],
      exclude_domains: ["pinterest.com"],
      time_range: "week",
      country: "germany",
    });
  });

  it("brave: operators in q, freshness, country and safesearch", async () => {
    const request = await sent("brave");
    expect(request.query).toEqual({
      q: ALL_OPERATORS,
      count: "7",
      country: "DE",
      safesearch: "strict",
      freshness: "pw",
      text_decorations: "false",
    });
  });

  it("exa: native domains, published-date window, userLocation and moderation", async () => {
    const request = await sent("exa");
    expect(request.body).toEqual({
      query: PLAIN,
      type: "auto",
      numResults: 7,
      includeDomains: ["docs.rs", "github.com"],
      excludeDomains: ["pinterest.com"],
      startPublishedDate: `${WEEK_AGO}T00:00:00.000Z`,
      userLocation: "DE",
      moderation: true,
      contents: { text: { maxCharacters: 600 } },
    });
  });

  it("serper: Google operators in q, gl and tbs", async () => {
    const request = await sent("serper");
    expect(request.body).toEqual({ q: ALL_OPERATORS, num: 7, gl: "de", tbs: "qdr:w" });
  });

  // No num: Google dropped it (serpapi.com/blog/minimum-amount-of-results-per-page-across-serpapis-supported-google-engines).
  it("serpapi: engine=google, operators, gl, safe and tbs; key in the query string", async () => {
    const request = await sent("serpapi");
    expect(request.query).toEqual({
      engine: "google",
      q: ALL_OPERATORS,
      gl: "de",
      safe: "active",
      tbs: "qdr:w",
      api_key: KEY,
    });
  });

  it("kagi: operators in q and limit", async () => {
    const request = await sent("kagi");
    expect(request.query).toEqual({ q: ALL_OPERATORS, limit: "7" });
  });

  it("jina: SERP-only JSON search with gl; several domains are left to the engine", async () => {
    const request = await sent("jina");
    expect(request.body).toEqual({ q: PLAIN, num: 7, gl: "de" });
    expect(request.headers["x-respond-with"]).toBe("no-content");
    expect(request.headers.accept).toBe("application/json");
    expect(request.headers["x-site"]).toBeUndefined();
  });

  it("jina: a single include domain becomes X-Site", async () => {
    const request = await sent("jina", { options: { includeDomains: ["docs.rs"] } });
    expect(request.headers["x-site"]).toBe("https://docs.rs");
  });

  it("you: freshness, country, safesearch, comma-separated domains and filetype operator", async () => {
    const request = await sent("you");
    expect(request.query).toEqual({
      query: `${PLAIN} filetype:pdf`,
      count: "7",
      freshness: "week",
      country: "DE",
      safesearch: "strict",
      include_domains: "docs.rs,github.com",
      exclude_domains: "pinterest.com",
    });
  });

  it("linkup: searchResults output with native domains and fromDate", async () => {
    const request = await sent("linkup");
    expect(request.body).toEqual({
      q: PLAIN,
      depth: "standard",
      outputType: "searchResults",
      maxResults: 7,
      includeDomains: ["docs.rs", "github.com"],
      excludeDomains: ["pinterest.com"],
      fromDate: WEEK_AGO,
    });
  });

  it("firecrawl: web source, operators it documents, tbs and country", async () => {
    const request = await sent("firecrawl");
    expect(request.body).toEqual({
      query: 'rust "async runtime" intitle:tokio site:docs.rs OR site:github.com -site:pinterest.com',
      limit: 7,
      sources: ["web"],
      tbs: "qdr:w",
      country: "DE",
    });
  });

  it("perplexity: allowlist domain filter, recency and country", async () => {
    const request = await sent("perplexity");
    expect(request.body).toEqual({
      query: PLAIN,
      max_results: 7,
      search_domain_filter: ["docs.rs", "github.com"],
      country: "DE",
      search_recency_filter: "week",
    });
  });

  it("perplexity: exclusions become a '-' denylist when there is no allowlist", async () => {
    const request = await sent("perplexity", { options: { excludeDomains: ["pinterest.com", "quora.com"] } });
    expect(request.body).toMatchObject({ search_domain_filter: ["-pinterest.com", "-quora.com"] });
  });

  it("searxng: json format, time_range, safesearch level and language", async () => {
    const request = await sent("searxng");
    expect(request.query).toEqual({
      q: 'rust "async runtime" tokio site:docs.rs OR site:github.com',
      format: "json",
      pageno: "1",
      time_range: "week",
      safesearch: "2",
      language: "de-DE",
    });
  });

  it("wikipedia: list=search with phrase and intitle operators", async () => {
    const request = await sent("wikipedia");
    expect(request.query).toEqual({
      action: "query",
      list: "search",
      srsearch: 'rust "async runtime" intitle:tokio',
      srlimit: "7",
      srprop: "snippet|timestamp",
      format: "json",
      utf8: "1",
    });
  });

  it("duckduckgo: form post with operators, kl region and df", async () => {
    const request = await sent("duckduckgo");
    expect(request.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(request.body).toEqual({ q: ALL_OPERATORS, b: "", kl: "de-de", df: "w" });
  });
});

describe("explicit after:/before: dates take precedence over time_range", () => {
  const DATED = {
    query: { terms: "election results", after: "2024-01-01", before: "2024-03-31" },
    options: { timeRange: "year" as const },
  };

  it("tavily sends start_date/end_date instead of time_range", async () => {
    const request = await sent("tavily", DATED);
    expect(request.body).toMatchObject({ start_date: "2024-01-01", end_date: "2024-03-31" });
    expect(request.body).not.toHaveProperty("time_range");
  });

  it("brave sends a custom freshness range", async () => {
    const request = await sent("brave", DATED);
    expect(request.query.freshness).toBe("2024-01-01to2024-03-31");
  });

  // perplexity-node src/generated/api.ts (ApiSearchRequestInput) names them *_date_filter, %m/%d/%Y; Perplexity
  // applies them together with the recency filter (its date-time filters page shows both in one request).
  it("perplexity sends search_after_date_filter / search_before_date_filter and keeps the recency filter", async () => {
    const request = await sent("perplexity", DATED);
    expect(request.body).toMatchObject({
      search_after_date_filter: "01/01/2024",
      search_before_date_filter: "03/31/2024",
      search_recency_filter: "year",
    });
    expect(request.body).not.toHaveProperty("search_after_date");
    expect(request.body).not.toHaveProperty("search_before_date");
  });

  it("serper keeps them as Google before:/after: operators", async () => {
    const request = await sent("serper", DATED);
    expect(request.body).toMatchObject({ q: "election results after:2024-01-01 before:2024-03-31" });
  });
});

describe("defaults stay off the wire", () => {
  it("brave sends no country, safesearch or freshness when none were asked for", async () => {
    const request = await sent("brave", { query: { terms: "plain query" } });
    expect(request.query).toEqual({ q: "plain query", count: "10", text_decorations: "false" });
  });

  it("tavily sends no domain lists, dates or country when none were asked for", async () => {
    const request = await sent("tavily", { query: { terms: "plain query" } });
    expect(request.body).toEqual({
      query: "plain query",
      max_results: 10,
      search_depth: "basic",
      topic: "general",
    });
  });
});
