/**
 * Brave Search API — web and news search.
 * Docs: https://api-dashboard.search.brave.com/api-reference/web/search/get and
 *   https://api-dashboard.search.brave.com/app/documentation/news-search/responses (API v1)
 * Wire: GET {base}/res/v1/web/search (news: /res/v1/news/search), `X-Subscription-Token: <key>`, query
 *   q (≤ 400 chars, operators rebuilt: site/-site/filetype/intitle/"phrase"), count ≤ 20 (news ≤ 50),
 *   country (2-letter, uppercase), search_lang (Brave's codes: "jp", "zh-hans", "pt-br", "nb", …),
 *   safesearch off|moderate|strict, freshness pd|pw|pm|py or YYYY-MM-DDtoYYYY-MM-DD, text_decorations=false
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
import { type RawResult, requestResults, requireApiKey, supports } from "./adapter-kit";
import { dateRangeParam, dateWindow, hasExplicitDates } from "./dates";
import { buildQueryText } from "./query-text";

const MAX_WEB_RESULTS = 20;
const MAX_NEWS_RESULTS = 50;
const FRESHNESS: Readonly<Record<TimeRange, string>> = { day: "pd", week: "pw", month: "pm", year: "py" };

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
  const url = buildUrl(call.baseUrl, path, {
    q: buildQueryText(call, brave.capabilities.queryOperators),
    count: Math.min(options.maxResults, maxResults),
    country: options.region?.toUpperCase(),
    search_lang: braveSearchLang(options.language, options.region),
    safesearch: options.safesearch,
    freshness: braveFreshness(call),
    text_decorations: false,
  });
  return requestResults(call, url, { headers: { "x-subscription-token": apiKey }, schema, results });
}

/** Explicit after:/before: dates become a custom range; otherwise the relative code. */
function braveFreshness(call: ProviderCall): string | undefined {
  if (hasExplicitDates(call)) return dateRangeParam(dateWindow(call));
  return call.options.timeRange ? FRESHNESS[call.options.timeRange] : undefined;
}

// Brave's search_lang values that are plain ISO 639-1 codes; the others are spelled its own way below.
const BRAVE_PLAIN_LANGUAGES = new Set(
  "ar bg bn ca cs da de en es et eu fi fr gl gu he hi hr hu is it kn ko lt lv ml mr ms nl pa pl ro ru sk sl sr sv ta te th tr uk vi".split(
    " ",
  ),
);

/** ISO 639-1 → Brave's `search_lang`; undefined for a language Brave does not list (not sent). */
export function braveSearchLang(
  language: string | undefined,
  region: string | undefined,
): string | undefined {
  if (language === undefined) return undefined;
  if (BRAVE_PLAIN_LANGUAGES.has(language)) return language;
  switch (language) {
    case "ja":
      return "jp";
    case "zh":
      return region === "tw" || region === "hk" ? "zh-hant" : "zh-hans";
    case "pt":
      return region === "br" ? "pt-br" : "pt-pt";
    case "nb":
    case "no":
      return "nb";
    default:
      return undefined;
  }
}
