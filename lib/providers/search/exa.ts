/**
 * Exa search, web and news.
 * Docs: https://exa.ai/docs/reference/search (REST, unversioned)
 * Wire: POST {base}/search, `x-api-key: <key>`, JSON body
 *   {query, type: "auto", category: "news" (news only), numResults, includeDomains, excludeDomains,
 *    startPublishedDate/endPublishedDate (ISO 8601), userLocation (2-letter), moderation,
 *    contents: {text: {maxCharacters}}}
 *   -> {requestId, results: [{title, url, publishedDate?, text?, highlights?, summary?}]}.
 * No language parameter: `language` is not sent.
 * Priced by the results it returns (the price table's `exa`: 10 included, each one beyond billed).
 */
import { z } from "zod";
import type { ProviderCall, SearchProvider } from "@/lib/engine/search/types";
import { buildUrl } from "@/lib/http/provider-client";
import { EXA_ERRORS } from "@/lib/providers/error-rules";
import { listedPrice } from "@/lib/providers/prices";
import { notesOf, requestResults, requireApiKey, resultCount, supports } from "./adapter-kit";
import { dateWindow } from "./dates";
import { buildQueryText } from "./query-text";

const MAX_RESULTS = 25;
const SNIPPET_CHARACTERS = 600;

/** Exa's results, the same objects for search and findSimilar. */
export const exaResponse = z.object({
  results: z.array(
    z.object({
      title: z.string().nullish(),
      url: z.string(),
      publishedDate: z.string().nullish(),
      text: z.string().nullish(),
      summary: z.string().nullish(),
      highlights: z.array(z.string()).nullish(),
    }),
  ),
});

export const exa: SearchProvider = {
  id: "exa",
  displayName: "Exa",
  keyEnv: ["EXA_API_KEY"],
  baseUrlEnv: "EXA_BASE_URL",
  defaultBaseUrl: "https://api.exa.ai",
  docsUrl: "https://exa.ai/docs/reference/search",
  apiVersion: "2025 REST (unversioned)",
  capabilities: supports({
    filters: ["timeRange", "region", "safesearch", "includeDomains", "excludeDomains"],
  }),
  price: listedPrice("exa"),
  defaultTimeoutMs: 15_000,
  maxResults: MAX_RESULTS,

  // One endpoint: the call's topic picks web or news.
  search: exaSearch,
  news: exaSearch,
};

async function exaSearch(call: ProviderCall) {
  const apiKey = requireApiKey(call, exa.displayName);
  const { options } = call;
  const window = dateWindow(call);
  const count = resultCount(options.maxResults, MAX_RESULTS, exa.displayName);
  const body = {
    query: buildQueryText(call, exa.capabilities.queryOperators),
    type: "auto",
    category: options.topic === "news" ? "news" : undefined,
    numResults: count.value,
    includeDomains: options.includeDomains.length > 0 ? options.includeDomains : undefined,
    excludeDomains: options.excludeDomains.length > 0 ? options.excludeDomains : undefined,
    startPublishedDate: window.from ? `${window.from}T00:00:00.000Z` : undefined,
    endPublishedDate: window.to ? `${window.to}T23:59:59.999Z` : undefined,
    userLocation: options.region?.toUpperCase(),
    moderation: options.safesearch === "strict" ? true : undefined,
    contents: { text: { maxCharacters: SNIPPET_CHARACTERS } },
  };
  return requestResults(call, buildUrl(call.baseUrl, "/search"), {
    method: "POST",
    headers: { "x-api-key": apiKey },
    errorRules: EXA_ERRORS,
    json: body,
    adjustments: notesOf(count),
    schema: exaResponse,
    results: fromExaResults,
  });
}

/** Exa's results as every adapter's raw results: the snippet from highlights, a summary or the text. */
export function fromExaResults(data: z.output<typeof exaResponse>) {
  return data.results.map((r) => ({
    title: r.title,
    url: r.url,
    snippet: r.highlights?.join(" … ") || r.summary || r.text,
    publishedAt: r.publishedDate,
  }));
}
