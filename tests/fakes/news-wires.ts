/**
 * The search providers' news endpoints, each in its provider's documented wire format (the adapters'
 * headers in lib/providers/search/ cite the docs), as variants of the providers' own wires
 * (provider-server.ts, "variant"): `startFakeProviders(NEWS_WIRES)`. They render the provider's scenario
 * `results` (NEWS_RESULTS by default) with its dates and publishers, the way each provider writes them.
 * You.com answers web and news in one response, so its variant renders both sections for every search.
 */
import {
  BRAVE_PAID_PLAN_HEADERS,
  bearer,
  body,
  braveRefusal,
  type FakeResult,
  type FakeWire,
  header,
  json,
  param,
  type RecordedRequest,
  SEARCH_WIRES,
} from "./provider-server";

/** Dated, published news; Google-backed wires say "N hours ago" as Google does. */
export const NEWS_RESULTS: readonly FakeResult[] = [1, 2, 3].map((n) => ({
  title: `News ${n}`,
  url: `https://news.example.com/story-${n}`,
  snippet: `What happened in story ${n}.`,
  publishedAt: `2026-03-0${n}T08:00:00Z`,
  source: `Example Times ${n}`,
}));

const hostOf = (url: string) => new URL(url).hostname;
const bodyOf = (request: RecordedRequest) => (request.body ?? {}) as Record<string, unknown>;

export const NEWS_WIRES: Readonly<Record<string, FakeWire>> = {
  "brave/news": {
    method: "GET",
    path: "/res/v1/news/search",
    credential: header("x-subscription-token"),
    searchedFor: param("q"),
    headers: BRAVE_PAID_PLAN_HEADERS,
    render: ({ results = NEWS_RESULTS }, request) =>
      braveRefusal(request) ??
      json({
        type: "news",
        query: { original: request.query.q ?? "" },
        results: results.map((r) => ({
          type: "news_result",
          title: r.title,
          url: r.url,
          description: r.snippet,
          age: "2 hours ago",
          page_age: r.publishedAt?.replace(/Z$/, ""),
          meta_url: { scheme: "https", netloc: hostOf(r.url), hostname: hostOf(r.url), path: "› story" },
          thumbnail: { src: "https://imgs.search.brave.com/thumb.jpg" },
          breaking: false,
        })),
      }),
  },
  "serper/news": {
    method: "POST",
    path: "/news",
    credential: header("x-api-key"),
    searchedFor: body("q"),
    render: ({ results = NEWS_RESULTS }, request) =>
      json({
        searchParameters: { q: bodyOf(request).q, type: "news", engine: "google" },
        news: results.map((r, i) => ({
          title: r.title,
          link: r.url,
          snippet: r.snippet,
          date: `${i + 2} hours ago`,
          source: r.source,
          imageUrl: "https://encrypted-tbn0.gstatic.com/images?q=tbn:fake",
          position: i + 1,
        })),
        credits: 1,
      }),
  },
  "serpapi/news": {
    method: "GET",
    path: "/search.json",
    accepts: (request) => request.query.tbm === "nws",
    credential: (request) => request.query.api_key,
    searchedFor: param("q"),
    render: ({ results = NEWS_RESULTS }, request) =>
      json({
        search_metadata: { id: "fake", status: "Success" },
        search_parameters: { engine: "google", q: request.query.q, tbm: "nws" },
        news_results: results.map((r, i) => ({
          position: i + 1,
          link: r.url,
          title: r.title,
          source: r.source,
          date: `${i + 2} hours ago`,
          snippet: r.snippet,
          thumbnail: "https://serpapi.com/searches/fake/images/thumb.jpeg",
        })),
      }),
  },
  // Tavily, Exa and SearXNG answer news in their web shape; Tavily writes dates the HTTP way.
  "tavily/news": {
    ...SEARCH_WIRES.tavily,
    accepts: (request) => bodyOf(request).topic === "news",
    render: ({ results = NEWS_RESULTS, ...scenario }, request) =>
      SEARCH_WIRES.tavily.render(
        {
          ...scenario,
          results: results.map((r) => ({
            ...r,
            publishedAt: r.publishedAt && new Date(r.publishedAt).toUTCString(),
          })),
        },
        request,
      ),
  },
  "exa/news": {
    ...SEARCH_WIRES.exa,
    accepts: (request) => bodyOf(request).category === "news",
    render: ({ results = NEWS_RESULTS, ...scenario }, request) =>
      SEARCH_WIRES.exa.render({ ...scenario, results }, request),
  },
  "you/news": {
    method: "GET",
    path: "/v1/search",
    credential: header("x-api-key"),
    searchedFor: param("query"),
    render: ({ results = NEWS_RESULTS }, request) => {
      const item = (r: FakeResult) => ({
        url: r.url,
        title: r.title,
        description: r.snippet,
        page_age: r.publishedAt,
      });
      return json({
        results: {
          web: results.map((r) => ({ ...item(r), snippets: [r.snippet] })),
          news: results.map((r) => ({ ...item(r), thumbnail_url: "https://you.com/thumb.jpg" })),
        },
        metadata: { request_uuid: "fake", query: request.query.query, latency: 0.1 },
      });
    },
  },
  "searxng/news": {
    ...SEARCH_WIRES.searxng,
    accepts: (request) => request.query.categories === "news",
    render: ({ results = NEWS_RESULTS, ...scenario }, request) =>
      SEARCH_WIRES.searxng.render({ ...scenario, results }, request),
  },
  "firecrawl/news": {
    method: "POST",
    path: "/v2/search",
    accepts: (request) => JSON.stringify(bodyOf(request).sources) === '["news"]',
    credential: bearer,
    searchedFor: body("query"),
    render: ({ results = NEWS_RESULTS }) =>
      json({
        success: true,
        data: {
          news: results.map((r, i) => ({
            title: r.title,
            url: r.url,
            snippet: r.snippet,
            date: `${i + 2} hours ago`,
            position: i + 1,
            imageUrl: "https://firecrawl.dev/thumb.jpg",
          })),
        },
        creditsUsed: 2,
      }),
  },
};
