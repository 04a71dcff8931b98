/**
 * Brave Search API — web search.
 * Docs: https://api-dashboard.search.brave.com/api-reference/web/search/get (API v1)
 * Wire: GET {base}/res/v1/web/search, `X-Subscription-Token: <key>`, query
 *   q (≤ 400 chars, operators rebuilt: site/-site/filetype/intitle/"phrase"), count ≤ 20,
 *   country (2-letter, uppercase), safesearch off|moderate|strict, freshness pd|pw|pm|py or
 *   YYYY-MM-DDtoYYYY-MM-DD, text_decorations=false
 *   -> {web: {results: [{title, url, description, page_age?}]}} (`web` is absent when nothing matched).
 * Pricing (brave.com/search/api): free plan 2,000 queries/month; "Base" $3–5 per 1,000 queries.
 * Rate limits (api-dashboard.search.brave.com/documentation/guides/rate-limiting): per plan, over a sliding
 * second (the free plan: 1 request a second) and a month, told in X-RateLimit-Limit / -Policy / -Remaining /
 * -Reset on every answer.
 */
import { z } from "zod";
import type { ProviderCall, SearchProvider, TimeRange } from "@/lib/engine/search/types";
import { buildUrl } from "@/lib/http/provider-client";
import { requestResults, requireApiKey, supports } from "./adapter-kit";
import { dateRangeParam, dateWindow, hasExplicitDates } from "./dates";
import { buildQueryText } from "./query-text";

const MAX_RESULTS = 20;
const FRESHNESS: Readonly<Record<TimeRange, string>> = { day: "pd", week: "pw", month: "pm", year: "py" };

const responseSchema = z.object({
  web: z
    .object({
      results: z.array(
        z.object({
          title: z.string().nullish(),
          url: z.string(),
          description: z.string().nullish(),
          page_age: z.string().nullish(),
        }),
      ),
    })
    .nullish(),
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
  costPerRequestUsd: 0.005,
  freeTier: { requests: 2000, period: "month" },
  defaultTimeoutMs: 10_000,
  requestsPerSecond: 1,

  async search(call) {
    const apiKey = requireApiKey(call, brave.displayName);
    const { options } = call;
    const url = buildUrl(call.baseUrl, "/res/v1/web/search", {
      q: buildQueryText(call, brave.capabilities.queryOperators),
      count: Math.min(options.maxResults, MAX_RESULTS),
      country: options.region?.toUpperCase(),
      safesearch: options.safesearch,
      freshness: braveFreshness(call),
      text_decorations: false,
    });
    return requestResults(call, url, {
      headers: { "x-subscription-token": apiKey },
      schema: responseSchema,
      results: (data) =>
        (data.web?.results ?? []).map((r) => ({
          title: r.title,
          url: r.url,
          snippet: r.description,
          publishedAt: r.page_age,
        })),
    });
  },
};

/** Explicit after:/before: dates become a custom range; otherwise the relative code. */
function braveFreshness(call: ProviderCall): string | undefined {
  if (hasExplicitDates(call)) return dateRangeParam(dateWindow(call));
  return call.options.timeRange ? FRESHNESS[call.options.timeRange] : undefined;
}
