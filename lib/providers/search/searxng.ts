/**
 * SearXNG instance (self-hosted metasearch), configured with SEARXNG_URL.
 * Docs: https://docs.searxng.org/dev/search_api.html
 * Wire: GET {SEARXNG_URL}/search?q=&format=json&pageno=1&time_range=day|week|month|year&safesearch=0|1|2
 *   &language=<lang>[-<REGION>] (the call's language, else the region's main one)&categories=news (news only)
 *   -> {query, results: [{url, title, content, engine, score, publishedDate?}], …}.
 * JSON output must be enabled in settings.yml (`search.formats: [html, json]`); otherwise the instance
 * answers 403, which is reported as a configuration error rather than a bad key.
 * About 20 results per page; there is no limit parameter, so results are cut to maxResults here.
 */
import { z } from "zod";
import type { ProviderCall, SafeSearch, SearchProvider } from "@/lib/engine/search/types";
import { ProviderError } from "@/lib/engine/shared/errors";
import { buildUrl } from "@/lib/http/provider-client";
import { listedPrice } from "@/lib/providers/prices";
import { requestResults, supports } from "./adapter-kit";
import { primaryLanguage } from "./locale";
import { buildQueryText } from "./query-text";

/**
 * The level asked of the instance when the call names none: moderate, the level Brave's API applies by
 * default, rather than the instance's own default (0, none; docs.searxng.org settings `search.safe_search`,
 * checked 2026-12-01).
 */
const DEFAULT_SAFESEARCH: SafeSearch = "moderate";

export const SAFESEARCH_LEVEL: Readonly<Record<SafeSearch, string>> = {
  off: "0",
  moderate: "1",
  strict: "2",
};

const responseSchema = z.object({
  results: z.array(
    z.object({
      url: z.string(),
      title: z.string().nullish(),
      content: z.string().nullish(),
      publishedDate: z.string().nullish(),
    }),
  ),
});

export const searxng: SearchProvider = {
  id: "searxng",
  displayName: "SearXNG",
  keyEnv: [],
  baseUrlEnv: "SEARXNG_URL",
  defaultBaseUrl: null,
  docsUrl: "https://docs.searxng.org/dev/search_api.html",
  apiVersion: "search API (format=json)",
  capabilities: supports({
    filters: ["timeRange", "region", "safesearch"],
    queryOperators: ["site", "phrase"],
  }),
  price: listedPrice("searxng"),
  defaultTimeoutMs: 10_000,

  // One endpoint: the call's topic picks web or news.
  search: searxngSearch,
  news: searxngSearch,
};

async function searxngSearch(call: ProviderCall) {
  const { options } = call;
  const url = buildUrl(call.baseUrl, "/search", {
    q: buildQueryText(call, searxng.capabilities.queryOperators),
    format: "json",
    pageno: 1,
    categories: options.topic === "news" ? "news" : undefined,
    time_range: options.timeRange,
    // Always sent: an instance's own default (settings.yml `search.safe_search`) is 0, no filtering at all.
    safesearch: SAFESEARCH_LEVEL[options.safesearch ?? DEFAULT_SAFESEARCH],
    language: searxngLanguage(options.language, options.region),
  });
  return requestResults(call, url, {
    schema: responseSchema,
    results: (data) =>
      data.results.map((r) => ({
        title: r.title,
        url: r.url,
        snippet: r.content,
        publishedAt: r.publishedDate,
      })),
  }).catch((error: unknown) => {
    throw explainForbidden(error);
  });
}

/** SearXNG's `language`: the call's language, else the region's main one; with a region, `<lang>-<REGION>`. */
export function searxngLanguage(
  language: string | undefined,
  region: string | undefined,
): string | undefined {
  const chosen = language ?? primaryLanguage(region);
  if (chosen === undefined) return undefined;
  return region ? `${chosen}-${region.toUpperCase()}` : chosen;
}

/** SearXNG answers 403 when JSON output is off: say how to turn it on. */
export function explainForbidden(error: unknown): unknown {
  if (error instanceof ProviderError && error.status === 403) {
    return new ProviderError(
      "http_error",
      "SearXNG returned 403: enable json in search.formats of settings.yml",
      403,
    );
  }
  return error;
}
