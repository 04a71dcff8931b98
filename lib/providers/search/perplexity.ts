/**
 * Perplexity Search API (raw ranked results, not the Sonar chat API).
 * Docs: https://docs.perplexity.ai/api-reference/search-post (REST, unversioned)
 * Wire: POST {base}/search, `Authorization: Bearer <key>`, JSON body
 *   {query, max_results (1–20), search_domain_filter (≤ 20; allowlist, or denylist with "-" prefixes —
 *    not both), country (2-letter), search_recency_filter day|week|month|year,
 *    search_after_date / search_before_date (MM/DD/YYYY), search_language_filter (ISO 639-1 codes, ≤ 10;
 *    docs.perplexity.ai/docs/search/filters/language-filter: only results in those languages)}
 *   -> {results: [{title, url, snippet, date?, last_updated?}]}.
 * No news search: skipped for topic news.
 * Its price and free tier: lib/providers/prices.ts.
 */
import { z } from "zod";
import type { SearchProvider } from "@/lib/engine/search/types";
import { buildUrl } from "@/lib/http/provider-client";
import { listedPrice } from "@/lib/providers/prices";
import { requestResults, requireApiKey, supports } from "./adapter-kit";
import { dateWindow, hasExplicitDates, usDate } from "./dates";
import { buildQueryText } from "./query-text";

const MAX_RESULTS = 20;
const MAX_DOMAINS = 20;

const responseSchema = z.object({
  results: z.array(
    z.object({
      title: z.string().nullish(),
      url: z.string(),
      snippet: z.string().nullish(),
      date: z.string().nullish(),
    }),
  ),
});

export const perplexity: SearchProvider = {
  id: "perplexity",
  displayName: "Perplexity Search",
  keyEnv: ["PERPLEXITY_API_KEY"],
  baseUrlEnv: "PERPLEXITY_BASE_URL",
  defaultBaseUrl: "https://api.perplexity.ai",
  docsUrl: "https://docs.perplexity.ai/api-reference/search-post",
  apiVersion: "2025 REST (unversioned)",
  // Exclusions are sent only when there is no allowlist (the API takes one mode), so the engine keeps
  // post-filtering them.
  capabilities: supports({ filters: ["timeRange", "region", "includeDomains"] }),
  price: listedPrice("perplexity"),
  defaultTimeoutMs: 15_000,

  async search(call) {
    const apiKey = requireApiKey(call, perplexity.displayName);
    const { options } = call;
    const explicitDates = hasExplicitDates(call);
    const window = dateWindow(call);
    const domainFilter =
      options.includeDomains.length > 0
        ? options.includeDomains
        : options.excludeDomains.map((domain) => `-${domain}`);
    return requestResults(call, buildUrl(call.baseUrl, "/search"), {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}` },
      json: {
        query: buildQueryText(call, perplexity.capabilities.queryOperators),
        max_results: Math.min(options.maxResults, MAX_RESULTS),
        search_domain_filter: domainFilter.length > 0 ? domainFilter.slice(0, MAX_DOMAINS) : undefined,
        country: options.region?.toUpperCase(),
        search_recency_filter: explicitDates ? undefined : options.timeRange,
        search_after_date: explicitDates && window.from ? usDate(window.from) : undefined,
        search_before_date: explicitDates && window.to ? usDate(window.to) : undefined,
        search_language_filter: options.language ? [options.language] : undefined,
      },
      schema: responseSchema,
      results: (data) =>
        data.results.map((r) => ({ title: r.title, url: r.url, snippet: r.snippet, publishedAt: r.date })),
    });
  },
};
