/**
 * Wikipedia full-text search through the MediaWiki Action API (keyless).
 * Docs: https://www.mediawiki.org/wiki/API:Search
 * Wire: GET {base}/w/api.php?action=query&list=search&srsearch=&srlimit=&srprop=snippet|timestamp
 *   &format=json&utf8=1 -> {query: {search: [{title, snippet, timestamp}]}}.
 * Snippets are HTML with <span class="searchmatch">; result URLs are built from titles. The call's language,
 * else the main language of its region, picks that language's wiki when the default base URL is in use.
 * No news search: skipped for topic news.
 */
import { z } from "zod";
import type { SearchProvider } from "@/lib/engine/search/types";
import { buildUrl } from "@/lib/http/provider-client";
import { listedPrice } from "@/lib/providers/prices";
import { requestResults, supports } from "./adapter-kit";
import { primaryLanguage } from "./locale";
import { buildQueryText } from "./query-text";

const DEFAULT_HOST = "en.wikipedia.org";
const MAX_RESULTS = 50;

const responseSchema = z.object({
  query: z.object({
    search: z.array(
      z.object({ title: z.string(), snippet: z.string().nullish(), timestamp: z.string().nullish() }),
    ),
  }),
});

/** The English default is swapped for the language's wiki; any other base URL is kept as configured. */
export function wikipediaBaseUrl(baseUrl: string, language: string | undefined): string {
  const url = new URL(baseUrl);
  if (!language || url.host !== DEFAULT_HOST) return baseUrl;
  url.host = `${language}.wikipedia.org`;
  return url.toString();
}

/** Canonical article URL: spaces become underscores; ":" "/" "," stay readable as Wikipedia writes them. */
export function articleUrl(host: string, title: string): string {
  const path = encodeURIComponent(title.replace(/ /g, "_"))
    .replace(/%3A/g, ":")
    .replace(/%2F/g, "/")
    .replace(/%2C/g, ",");
  return `https://${host}/wiki/${path}`;
}

export const wikipedia: SearchProvider = {
  id: "wikipedia",
  displayName: "Wikipedia",
  keyEnv: [],
  baseUrlEnv: "WIKIPEDIA_BASE_URL",
  defaultBaseUrl: `https://${DEFAULT_HOST}`,
  docsUrl: "https://www.mediawiki.org/wiki/API:Search",
  apiVersion: "MediaWiki Action API",
  capabilities: supports({ filters: ["region"], queryOperators: ["phrase", "intitle"] }),
  price: listedPrice("wikipedia"),
  defaultTimeoutMs: 8_000,

  async search(call) {
    const language = call.options.language ?? primaryLanguage(call.options.region);
    const baseUrl = wikipediaBaseUrl(call.baseUrl, language);
    const baseHost = new URL(baseUrl).host;
    // Behind a proxy or a test server the articles still live on Wikipedia.
    const articleHost = baseHost.endsWith(".wikipedia.org") ? baseHost : `${language ?? "en"}.wikipedia.org`;
    const url = buildUrl(baseUrl, "/w/api.php", {
      action: "query",
      list: "search",
      srsearch: buildQueryText(call, wikipedia.capabilities.queryOperators),
      srlimit: Math.min(call.options.maxResults, MAX_RESULTS),
      srprop: "snippet|timestamp",
      format: "json",
      utf8: 1,
    });
    return requestResults(call, url, {
      schema: responseSchema,
      results: (data) =>
        data.query.search.map((r) => ({
          title: r.title,
          url: articleUrl(articleHost, r.title),
          snippet: r.snippet,
          publishedAt: r.timestamp,
        })),
    });
  },
};
