/**
 * Jina Search (s.jina.ai).
 * Docs: https://jina.ai/reader/#apiform (search section; machine-readable at https://docs.jina.ai)
 * Wire: POST {base}/, `Authorization: Bearer <key>`, `Accept: application/json`,
 *   `X-Respond-With: no-content` (SERP only, no page crawl), optional `X-Site: https://<domain>` (one domain),
 *   JSON body {q, num, gl, hl (language)} -> {code, status, data: [{title, url, description, date?}]}.
 *   No news search: skipped for topic news.
 * Its price and free tier: lib/providers/prices.ts.
 */
import { z } from "zod";
import type { SearchProvider } from "@/lib/engine/search/types";
import { buildUrl } from "@/lib/http/provider-client";
import { listedPrice } from "@/lib/providers/prices";
import { requestResults, requireApiKey, supports } from "./adapter-kit";
import { buildQueryText } from "./query-text";

const MAX_RESULTS = 20;

const responseSchema = z.object({
  data: z
    .array(
      z.object({
        title: z.string().nullish(),
        url: z.string(),
        description: z.string().nullish(),
        date: z.string().nullish(),
      }),
    )
    .nullish(),
});

export const jina: SearchProvider = {
  id: "jina",
  displayName: "Jina Search",
  keyEnv: ["JINA_API_KEY"],
  baseUrlEnv: "JINA_BASE_URL",
  defaultBaseUrl: "https://s.jina.ai",
  docsUrl: "https://jina.ai/reader/",
  apiVersion: "2025 REST (unversioned)",
  // X-Site takes a single domain, so several include_domains are left to the engine's post-filter.
  capabilities: supports({ filters: ["region"] }),
  price: listedPrice("jina"),
  defaultTimeoutMs: 15_000,

  async search(call) {
    const apiKey = requireApiKey(call, jina.displayName);
    const { options } = call;
    const [onlySite] = options.includeDomains.length === 1 ? options.includeDomains : [];
    const headers: Record<string, string> = {
      authorization: `Bearer ${apiKey}`,
      accept: "application/json",
      "x-respond-with": "no-content",
    };
    if (onlySite) headers["x-site"] = `https://${onlySite}`;
    return requestResults(call, buildUrl(call.baseUrl, "/"), {
      method: "POST",
      headers,
      json: {
        q: buildQueryText(call, jina.capabilities.queryOperators),
        num: Math.min(options.maxResults, MAX_RESULTS),
        gl: options.region,
        hl: options.language,
      },
      schema: responseSchema,
      results: (data) =>
        (data.data ?? []).map((r) => ({
          title: r.title,
          url: r.url,
          snippet: r.description,
          publishedAt: r.date,
        })),
    });
  },
};
