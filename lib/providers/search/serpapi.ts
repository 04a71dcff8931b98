/**
 * SerpApi — Google Search engine, web and news.
 * Docs: https://serpapi.com/search-api (engine=google) and https://serpapi.com/news-results (tbm=nws)
 * Wire: GET {base}/search.json with query parameters
 *   engine=google, q (Google operators rebuilt), num, gl, hl (language), safe=active|off, tbs=qdr:d|w|m|y,
 *   tbm=nws for news, api_key
 *   -> {search_metadata, organic_results: [{position, title, link, snippet?, date?}], error?};
 *      news: {search_metadata, news_results: [{position, title, link, source, date ("15 hours ago"), snippet?}]}.
 * The key travels in the query string (SerpApi has no header auth); the HTTP client never puts URLs
 * in error messages, so it does not leak into traces.
 * A successful search with nothing found answers 200 with `error: "Google hasn't returned any results…"`.
 * Its price and free tier: lib/providers/prices.ts.
 */
import { z } from "zod";
import type { ProviderCall, SearchProvider } from "@/lib/engine/search/types";
import { ProviderError } from "@/lib/engine/shared/errors";
import { buildUrl, parseResponse, requestJson } from "@/lib/http/provider-client";
import { listedPrice } from "@/lib/providers/prices";
import { requireApiKey, supports, toProviderResponse } from "./adapter-kit";
import {
  fromGoogleNews,
  fromGoogleOrganic,
  googleNewsResults,
  googleOrganicResults,
  googleSafe,
  googleTbs,
} from "./google-params";
import { buildQueryText } from "./query-text";

const MAX_RESULTS = 100;

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
    num: Math.min(options.maxResults, MAX_RESULTS),
    gl: options.region,
    hl: options.language,
    safe: options.safesearch ? googleSafe(options.safesearch) : undefined,
    tbs: options.timeRange ? googleTbs(options.timeRange) : undefined,
    tbm: tab === "news" ? "nws" : undefined,
    api_key: apiKey,
  });
  const response = await requestJson(url, { signal: call.signal });
  const data = parseResponse(responseSchema, response.json);
  const found = tab === "news" ? data.news_results : data.organic_results;
  if (data.error && !found && !/hasn't returned any results/i.test(data.error)) {
    throw new ProviderError("http_error", `SerpApi: ${data.error}`, response.status);
  }
  const results =
    tab === "news" ? fromGoogleNews(data.news_results) : fromGoogleOrganic(data.organic_results);
  return toProviderResponse(results, call, response);
}
