/**
 * Perplexity Search API (raw ranked results, not the Sonar chat API).
 * Docs: https://docs.perplexity.ai/api-reference/search-post (REST, unversioned); field names as the official
 *   SDK types them (perplexityai/perplexity-node src/generated/api.ts, ApiSearchRequestInput).
 * Wire: POST {base}/search, `Authorization: Bearer <key>`, JSON body
 *   {query, max_results (1–20), search_domain_filter (≤ 20; allowlist, or denylist with "-" prefixes —
 *    not both), country (ISO 3166-1 alpha-2), search_recency_filter hour|day|week|month|year,
 *    search_after_date_filter / search_before_date_filter (%m/%d/%Y; applied together with the recency filter,
 *    docs.perplexity.ai/docs/search/filters/date-time-filters), search_language_filter (ISO 639-1 codes;
 *    docs.perplexity.ai/docs/search/filters/language-filter: only results in those languages)}
 *   -> {id, results: [{title, url, snippet, date?, last_updated?}], server_time?}.
 * No news search: skipped for topic news.
 * Its price and free tier: lib/providers/prices.ts.
 */
import { z } from "zod";
import type { SearchProvider } from "@/lib/engine/search/types";
import { buildUrl } from "@/lib/http/provider-client";
import { listedPrice } from "@/lib/providers/prices";
import { notesOf, requestResults, requireApiKey, resultCount, supports } from "./adapter-kit";
import { usDate } from "./dates";
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
    const { query, options } = call;
    const count = resultCount(options.maxResults, MAX_RESULTS, perplexity.displayName);
    const domainFilter =
      options.includeDomains.length > 0
        ? options.includeDomains
        : options.excludeDomains.map((domain) => `-${domain}`);
    return requestResults(call, buildUrl(call.baseUrl, "/search"), {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}` },
      json: {
        query: buildQueryText(call, perplexity.capabilities.queryOperators),
        max_results: count.value,
        search_domain_filter: domainFilter.length > 0 ? domainFilter.slice(0, MAX_DOMAINS) : undefined,
        country: options.region?.toUpperCase(),
        // Perplexity applies all three together, as the engine's post-filter would.
        search_recency_filter: options.timeRange,
        search_after_date_filter: query.after ? usDate(query.after) : undefined,
        search_before_date_filter: query.before ? usDate(query.before) : undefined,
        search_language_filter: options.language ? [options.language] : undefined,
      },
      adjustments: notesOf(count),
      schema: responseSchema,
      results: (data) =>
        data.results.map((r) => ({ title: r.title, url: r.url, snippet: r.snippet, publishedAt: r.date })),
    });
  },
};
