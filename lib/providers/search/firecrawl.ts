/**
 * Firecrawl search (v2), web and news.
 * Docs: https://docs.firecrawl.dev/api-reference/endpoint/search (v2)
 * Wire: POST {base}/v2/search, `Authorization: Bearer <key>`, JSON body
 *   {query (operators: site/-site/intitle/"phrase"), limit ≤ 100, sources: ["web"] | ["news"],
 *    tbs: qdr:d|w|m|y, country}
 *   -> {success, data: {web: [{url, title, description, position}]}} or, for news,
 *   {success, data: {news: [{url, title, snippet, date, position, imageUrl?}]}}; without scrapeOptions no
 *   pages are scraped, so a search costs 2 credits per 10 results. No language parameter: not sent.
 * Its price and free tier: lib/providers/prices.ts.
 */
import { z } from "zod";
import type { ProviderCall, SearchProvider } from "@/lib/engine/search/types";
import { ProviderError } from "@/lib/engine/shared/errors";
import { buildUrl, parseResponse, requestJson } from "@/lib/http/provider-client";
import { listedPrice } from "@/lib/providers/prices";
import { requireApiKey, supports, toProviderResponse } from "./adapter-kit";
import { googleTbs } from "./google-params";
import { buildQueryText } from "./query-text";

const MAX_RESULTS = 100;

const responseSchema = z.object({
  success: z.boolean(),
  error: z.string().nullish(),
  data: z
    .object({
      web: z
        .array(z.object({ url: z.string(), title: z.string().nullish(), description: z.string().nullish() }))
        .nullish(),
      news: z
        .array(
          z.object({
            url: z.string(),
            title: z.string().nullish(),
            snippet: z.string().nullish(),
            date: z.string().nullish(),
          }),
        )
        .nullish(),
    })
    .nullish(),
});

export const firecrawl: SearchProvider = {
  id: "firecrawl",
  displayName: "Firecrawl",
  keyEnv: ["FIRECRAWL_API_KEY"],
  baseUrlEnv: "FIRECRAWL_BASE_URL",
  defaultBaseUrl: "https://api.firecrawl.dev",
  docsUrl: "https://docs.firecrawl.dev/api-reference/endpoint/search",
  apiVersion: "v2",
  capabilities: supports({
    filters: ["timeRange", "region"],
    queryOperators: ["site", "-site", "intitle", "phrase"],
  }),
  price: listedPrice("firecrawl"),
  defaultTimeoutMs: 20_000,

  // One endpoint: the call's topic picks web or news.
  search: firecrawlSearch,
  news: firecrawlSearch,
};

async function firecrawlSearch(call: ProviderCall) {
  const apiKey = requireApiKey(call, firecrawl.displayName);
  const { options } = call;
  const news = options.topic === "news";
  const response = await requestJson(buildUrl(call.baseUrl, "/v2/search"), {
    method: "POST",
    headers: { authorization: `Bearer ${apiKey}` },
    json: {
      query: buildQueryText(call, firecrawl.capabilities.queryOperators),
      limit: Math.min(options.maxResults, MAX_RESULTS),
      sources: [news ? "news" : "web"],
      // Firecrawl's tbs is Google's syntax.
      tbs: options.timeRange ? googleTbs(options.timeRange) : undefined,
      country: options.region?.toUpperCase(),
    },
    signal: call.signal,
  });
  const data = parseResponse(responseSchema, response.json);
  if (!data.success) {
    throw new ProviderError("http_error", `Firecrawl: ${data.error ?? "search failed"}`, response.status);
  }
  const results = news
    ? (data.data?.news ?? []).map((r) => ({
        title: r.title,
        url: r.url,
        snippet: r.snippet,
        publishedAt: r.date,
      }))
    : (data.data?.web ?? []).map((r) => ({ title: r.title, url: r.url, snippet: r.description }));
  return toProviderResponse(results, call, response);
}
