/**
 * Tavily Search API, web and news.
 * Docs: https://docs.tavily.com/documentation/api-reference/endpoint/search (REST, no version segment)
 * Wire: POST {base}/search, `Authorization: Bearer <key>`, JSON body
 *   {query, max_results ≤ 20, search_depth: "basic", topic: "general" | "news", include_domains, exclude_domains,
 *    time_range: day|week|month|year | start_date/end_date (YYYY-MM-DD), country: lowercase English name}
 *   -> {query, results: [{title, url, content, score, published_date? (news)}], response_time}.
 * time_range and start/end dates are alternatives: dates are sent only when after:/before: are given.
 * News is the same call with topic "news" (`days` is not sent: time_range bounds news too). No language
 * parameter: `language` is not sent.
 * Its price and free tier: lib/providers/prices.ts.
 */
import { z } from "zod";
import type { ProviderCall, SearchProvider } from "@/lib/engine/search/types";
import { buildUrl } from "@/lib/http/provider-client";
import { listedPrice } from "@/lib/providers/prices";
import { requestResults, requireApiKey, supports } from "./adapter-kit";
import { dateWindow, hasExplicitDates } from "./dates";
import { buildQueryText } from "./query-text";

const MAX_RESULTS = 20;

const responseSchema = z.object({
  results: z.array(
    z.object({
      title: z.string().nullish(),
      url: z.string(),
      content: z.string().nullish(),
      published_date: z.string().nullish(),
    }),
  ),
});

// Tavily's `country` enum uses English names; where Intl's CLDR name differs from Tavily's, override it.
const COUNTRY_NAME_OVERRIDES: Readonly<Record<string, string>> = {
  cz: "czech republic",
  hk: "hong kong",
  mm: "myanmar",
  tr: "turkey",
};
const regionNames = new Intl.DisplayNames(["en"], { type: "region", fallback: "none" });

// CLDR names private-use codes ("zz" is "Unknown Region"); they are never real countries.
const PRIVATE_USE_REGION = /^(aa|q[m-z]|x[a-z]|zz)$/;

export function tavilyCountry(region: string): string | undefined {
  const code = region.toLowerCase();
  if (PRIVATE_USE_REGION.test(code)) return undefined;
  const override = COUNTRY_NAME_OVERRIDES[code];
  if (override) return override;
  return regionNames.of(code.toUpperCase())?.toLowerCase();
}

export const tavily: SearchProvider = {
  id: "tavily",
  displayName: "Tavily",
  keyEnv: ["TAVILY_API_KEY"],
  baseUrlEnv: "TAVILY_BASE_URL",
  defaultBaseUrl: "https://api.tavily.com",
  docsUrl: "https://docs.tavily.com/documentation/api-reference/endpoint/search",
  apiVersion: "2025 REST (unversioned)",
  capabilities: supports({ filters: ["timeRange", "region", "includeDomains", "excludeDomains"] }),
  price: listedPrice("tavily"),
  defaultTimeoutMs: 15_000,

  // One endpoint: the call's topic picks web or news.
  search: tavilySearch,
  news: tavilySearch,
};

async function tavilySearch(call: ProviderCall) {
  const apiKey = requireApiKey(call, tavily.displayName);
  const { options } = call;
  const window = dateWindow(call);
  const useDates = hasExplicitDates(call);
  const body = {
    query: buildQueryText(call, tavily.capabilities.queryOperators),
    max_results: Math.min(options.maxResults, MAX_RESULTS),
    search_depth: "basic",
    topic: options.topic,
    include_domains: options.includeDomains.length > 0 ? options.includeDomains : undefined,
    exclude_domains: options.excludeDomains.length > 0 ? options.excludeDomains : undefined,
    time_range: useDates ? undefined : options.timeRange,
    start_date: useDates ? window.from : undefined,
    end_date: useDates ? window.to : undefined,
    // Tavily takes `country` with topic "general" only.
    country: options.region && options.topic === "general" ? tavilyCountry(options.region) : undefined,
  };
  return requestResults(call, buildUrl(call.baseUrl, "/search"), {
    method: "POST",
    headers: { authorization: `Bearer ${apiKey}` },
    json: body,
    schema: responseSchema,
    results: (data) =>
      data.results.map((r) => ({
        title: r.title,
        url: r.url,
        snippet: r.content,
        publishedAt: r.published_date,
      })),
  });
}
