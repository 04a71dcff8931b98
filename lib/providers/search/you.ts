/**
 * You.com Search API, web and news.
 * Docs: https://you.com/docs/api-reference/search/v1-search (v1)
 * Wire: GET {base}/v1/search, `X-API-Key: <key>`, query
 *   query, count (1–100, per section), freshness day|week|month|year | YYYY-MM-DDtoYYYY-MM-DD,
 *   country (2-letter, uppercase), language (BCP 47, e.g. DE), include_domains / exclude_domains
 *   (comma-separated on GET)
 *   -> {results: {web: [{url, title, description, snippets: [], page_age?}],
 *                 news: [{url, title, description, page_age?, thumbnail_url?}]}, metadata}.
 * One endpoint answers both sections (news when You.com judges the query newsworthy): a web search reads
 * `results.web`, a news search `results.news` (news items carry no snippets and would skew web fusion).
 * Its price and free tier: lib/providers/prices.ts.
 */
import { z } from "zod";
import type { ProviderCall, SearchProvider } from "@/lib/engine/search/types";
import { buildUrl } from "@/lib/http/provider-client";
import { listedPrice } from "@/lib/providers/prices";
import { requestResults, requireApiKey, supports } from "./adapter-kit";
import { dateRangeParam, dateWindow, hasExplicitDates } from "./dates";
import { buildQueryText } from "./query-text";

const MAX_RESULTS = 100;

const section = z
  .array(
    z.object({
      url: z.string(),
      title: z.string().nullish(),
      description: z.string().nullish(),
      snippets: z.array(z.string()).nullish(),
      page_age: z.string().nullish(),
    }),
  )
  .nullish();

const responseSchema = z.object({ results: z.object({ web: section, news: section }) });

export const you: SearchProvider = {
  id: "you",
  displayName: "You.com",
  keyEnv: ["YOU_API_KEY"],
  baseUrlEnv: "YOU_BASE_URL",
  defaultBaseUrl: "https://ydc-index.io",
  docsUrl: "https://you.com/docs/api-reference/search/v1-search",
  apiVersion: "v1",
  capabilities: supports({
    filters: ["timeRange", "region", "includeDomains", "excludeDomains"],
    queryOperators: ["filetype"],
  }),
  price: listedPrice("you"),
  defaultTimeoutMs: 15_000,

  // One endpoint: the call's topic picks web or news.
  search: youSearch,
  news: youSearch,
};

async function youSearch(call: ProviderCall) {
  const apiKey = requireApiKey(call, you.displayName);
  const { options } = call;
  const url = buildUrl(call.baseUrl, "/v1/search", {
    query: buildQueryText(call, you.capabilities.queryOperators),
    count: Math.min(options.maxResults, MAX_RESULTS),
    freshness: hasExplicitDates(call) ? dateRangeParam(dateWindow(call)) : options.timeRange,
    country: options.region?.toUpperCase(),
    language: options.language?.toUpperCase(),
    include_domains: options.includeDomains.join(",") || undefined,
    exclude_domains: options.excludeDomains.join(",") || undefined,
  });
  return requestResults(call, url, {
    headers: { "x-api-key": apiKey },
    schema: responseSchema,
    results: (data) =>
      ((options.topic === "news" ? data.results.news : data.results.web) ?? []).map((r) => ({
        title: r.title,
        url: r.url,
        snippet: r.snippets?.join(" … ") || r.description,
        publishedAt: r.page_age,
      })),
  });
}
