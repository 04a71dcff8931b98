/**
 * Brave Search API — web and news search.
 * Docs: https://api-dashboard.search.brave.com/api-reference/web/search/get and
 *   https://api-dashboard.search.brave.com/app/documentation/news-search/responses (API v1); parameter
 *   values as Brave's own MCP server validates them (brave/brave-search-mcp-server src/tools/web/params.ts).
 * Wire: GET {base}/res/v1/web/search (news: /res/v1/news/search), `X-Subscription-Token: <key>`, query
 *   q (≤ 400 chars and ≤ 50 words, else 422: fitted, operators rebuilt: site/-site/filetype/intitle/"phrase"),
 *   count ≤ 20 (news ≤ 50), country (one of 36 codes or ALL, else 422: another region is sent as ALL),
 *   search_lang (Brave's 50 codes: "jp", "zh-hans", "pt-br", "en-gb", …; another language is not sent),
 *   safesearch off|moderate|strict, freshness pd|pw|pm|py or YYYY-MM-DDtoYYYY-MM-DD, text_decorations=false
 *   (ui_lang is not sent: it only localises Brave's own labels). Each change is told in `adjustments`.
 *   -> web: {web: {results: [{title, url, description, page_age?}]}} (`web` is absent when nothing matched);
 *      news: {type: "news", results: [{title, url, description?, age?, page_age?, meta_url?: {hostname}}]}.
 * Its price and free tier: lib/providers/prices.ts.
 * Rate limits (api-dashboard.search.brave.com/documentation/guides/rate-limiting): per plan, over a sliding
 * second (the free plan: 1 request a second) and a month, told in X-RateLimit-Limit / -Policy / -Remaining /
 * -Reset on every answer.
 */
import { z } from "zod";
import type { ProviderCall, SearchProvider, TimeRange } from "@/lib/engine/search/types";
import { buildUrl } from "@/lib/http/provider-client";
import { listedPrice } from "@/lib/providers/prices";
import {
  type Fitted,
  notesOf,
  type RawResult,
  requestResults,
  requireApiKey,
  resultCount,
  supports,
} from "./adapter-kit";
import { dateRangeParam, dateWindow, hasExplicitDates } from "./dates";
import { fittedLanguage, marketCountry } from "./market-codes";
import { fitQueryText, type QueryLimit } from "./query-text";

const MAX_WEB_RESULTS = 20;
const MAX_NEWS_RESULTS = 50;
const FRESHNESS: Readonly<Record<TimeRange, string>> = { day: "pd", week: "pw", month: "pm", year: "py" };
/** What `q` may hold (web, news and images alike); more is a 422. */
export const BRAVE_QUERY_LIMIT: QueryLimit = { provider: "Brave", chars: 400, words: 50 };

const resultItem = z.object({
  title: z.string().nullish(),
  url: z.string(),
  description: z.string().nullish(),
  page_age: z.string().nullish(),
});

const webSchema = z.object({ web: z.object({ results: z.array(resultItem) }).nullish() });

const newsSchema = z.object({
  results: z.array(resultItem.extend({ meta_url: z.object({ hostname: z.string().nullish() }).nullish() })),
});

export const brave: SearchProvider = {
  id: "brave",
  displayName: "Brave Search",
  keyEnv: ["BRAVE_API_KEY"],
  baseUrlEnv: "BRAVE_BASE_URL",
  defaultBaseUrl: "https://api.search.brave.com",
  docsUrl: "https://api-dashboard.search.brave.com/api-reference/web/search/get",
  apiVersion: "v1",
  capabilities: supports({
    filters: ["timeRange", "region", "safesearch"],
    queryOperators: ["site", "-site", "filetype", "intitle", "phrase"],
  }),
  price: listedPrice("brave"),
  defaultTimeoutMs: 10_000,
  requestsPerSecond: 1,

  search: (call) =>
    braveRequest(call, "/res/v1/web/search", MAX_WEB_RESULTS, webSchema, (data) =>
      (data.web?.results ?? []).map((r) => ({
        title: r.title,
        url: r.url,
        snippet: r.description,
        publishedAt: r.page_age,
      })),
    ),

  news: (call) =>
    braveRequest(call, "/res/v1/news/search", MAX_NEWS_RESULTS, newsSchema, (data) =>
      data.results.map((r) => ({
        title: r.title,
        url: r.url,
        snippet: r.description,
        publishedAt: r.page_age,
        // Brave names no publisher; the article's host is the closest it gives.
        source: r.meta_url?.hostname?.replace(/^www\./, ""),
      })),
    ),
};

/** Web and news search take the same parameters; only the path, the result cap and the answer differ. */
async function braveRequest<S extends z.ZodType>(
  call: ProviderCall,
  path: string,
  maxResults: number,
  schema: S,
  results: (data: z.output<S>) => readonly RawResult[],
) {
  const apiKey = requireApiKey(call, brave.displayName);
  const { options } = call;
  const query = fitQueryText(call, brave.capabilities.queryOperators, BRAVE_QUERY_LIMIT);
  const country = braveCountry(options.region);
  const language = fittedLanguage(options.language, options.region, {
    provider: "Brave",
    parameter: "search_lang",
  });
  const count = resultCount(options.maxResults, maxResults, brave.displayName);
  const url = buildUrl(call.baseUrl, path, {
    q: query.value,
    count: count.value,
    country: country.value,
    search_lang: language.value,
    safesearch: options.safesearch,
    freshness: braveFreshness(call),
    text_decorations: false,
  });
  return requestResults(call, url, {
    headers: { "x-subscription-token": apiKey },
    schema,
    results,
    adjustments: notesOf(query, country, language, count),
  });
}

/** The region as Brave's `country`: a code it does not take becomes ALL (no country), told in the note. */
export function braveCountry(region: string | undefined): Fitted<string | undefined> {
  if (region === undefined) return { value: undefined };
  const code = marketCountry(region);
  if (code) return { value: code };
  return {
    value: "ALL",
    note: `region "${region}" is not one of the countries Brave takes: sent as ALL (results from any country)`,
  };
}

/** Explicit after:/before: dates become a custom range; otherwise the relative code. */
function braveFreshness(call: ProviderCall): string | undefined {
  if (hasExplicitDates(call)) return dateRangeParam(dateWindow(call));
  return call.options.timeRange ? FRESHNESS[call.options.timeRange] : undefined;
}
