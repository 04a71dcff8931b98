/**
 * SerpApi — Google Search engine, web and news.
 * Docs: https://serpapi.com/search-api (engine=google) and https://serpapi.com/news-results (tbm=nws)
 * Wire: GET {base}/search.json with query parameters
 *   engine=google, q (Google operators rebuilt), gl, hl (language), safe=active|off, tbs=qdr:d|w|m|y,
 *   tbm=nws for news, api_key (no `num`: "Google has discontinued support for the num parameter",
 *   serpapi.com/blog/minimum-amount-of-results-per-page-across-serpapis-supported-google-engines)
 *   -> {search_metadata, organic_results: [{position, title, link, snippet?, date?}], error?};
 *      news: {search_metadata, news_results: [{position, title, link, source, date ("15 hours ago"), snippet?}]}.
 * The key travels in the query string (SerpApi has no header auth); the HTTP client never puts URLs
 * in error messages, so it does not leak into traces.
 * A successful search with nothing found answers 200 with `error: "Google hasn't returned any results…"`.
 * One page only: Google gives about 10 results a page, each further page (`start`) is another billed search
 * (serpapi.com/blog/calculating-search-credit-usage-with-serpapi), and one admission reserves one search; a
 * call for more than a page is answered with the first and says so in `adjustments`.
 * Its price and free tier: lib/providers/prices.ts.
 */
import { z } from "zod";
import type { ProviderCall, SearchProvider } from "@/lib/engine/search/types";
import { ProviderError } from "@/lib/engine/shared/errors";
import { buildUrl, parseResponse, requestJson } from "@/lib/http/provider-client";
import { SERPAPI_ERRORS } from "@/lib/providers/error-rules";
import { listedPrice } from "@/lib/providers/prices";
import { type Fitted, notesOf, requireApiKey, supports, toProviderResponse } from "./adapter-kit";
import {
  fromGoogleNews,
  fromGoogleOrganic,
  googleNewsResults,
  googleOrganicResults,
  googleSafe,
  googleTbs,
} from "./google-params";
import { buildQueryText } from "./query-text";

/** What one Google results page (one billed SerpApi search) holds. */
const PAGE_RESULTS = 10;

const responseSchema = z.object({
  error: z.string().nullish(),
  organic_results: googleOrganicResults,
  news_results: googleNewsResults,
});

export const serpapi: SearchProvider = {
  id: "serpapi",
  displayName: "SerpApi",
  keyEnv: ["SERPAPI_API_KEY"],
  baseUrlEnv: "SERPAPI_BASE_URL",
  defaultBaseUrl: "https://serpapi.com",
  docsUrl: "https://serpapi.com/search-api",
  apiVersion: "2025 REST (unversioned), engine=google",
  capabilities: supports({
    filters: ["timeRange", "region", "safesearch"],
    queryOperators: ["site", "-site", "filetype", "intitle", "phrase", "before", "after"],
  }),
  price: listedPrice("serpapi"),
  defaultTimeoutMs: 15_000,

  search: (call) => serpApiSearch(call, "web"),
  news: (call) => serpApiSearch(call, "news"),
};

/** One search.json round trip; news is Google's news tab (tbm=nws), read from `news_results`. */
async function serpApiSearch(call: ProviderCall, tab: "web" | "news") {
  const apiKey = requireApiKey(call, serpapi.displayName);
  const { options } = call;
  const url = buildUrl(call.baseUrl, "/search.json", {
    engine: "google",
    q: buildQueryText(call, serpapi.capabilities.queryOperators),
    gl: options.region,
    hl: options.language,
    safe: options.safesearch ? googleSafe(options.safesearch) : undefined,
    tbs: options.timeRange ? googleTbs(options.timeRange) : undefined,
    tbm: tab === "news" ? "nws" : undefined,
    api_key: apiKey,
  });
  const response = await requestJson(url, { signal: call.signal, errorRules: SERPAPI_ERRORS });
  const data = parseResponse(responseSchema, response.json);
  const found = tab === "news" ? data.news_results : data.organic_results;
  if (data.error && !found && !/hasn't returned any results/i.test(data.error)) {
    throw new ProviderError("http_error", `SerpApi: ${data.error}`, response.status);
  }
  const results =
    tab === "news" ? fromGoogleNews(data.news_results) : fromGoogleOrganic(data.organic_results);
  return toProviderResponse(results, call, response, notesOf(onePage(options.maxResults)));
}

/** A call for more than a page: one page is all one admitted (billed) search buys. */
function onePage(asked: number): Fitted<number> {
  if (asked <= PAGE_RESULTS) return { value: asked };
  return {
    value: PAGE_RESULTS,
    note: `asked for ${asked} results: SerpApi answers one Google page (about ${PAGE_RESULTS}) per billed search, and one search was made`,
  };
}
