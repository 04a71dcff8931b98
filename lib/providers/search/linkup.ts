/**
 * Linkup search.
 * Docs: https://docs.linkup.so/api-reference/search/search (v1)
 * Wire: POST {base}/search (base ends in /v1), `Authorization: Bearer <key>`, JSON body
 *   {q, depth: "standard", outputType: "searchResults", maxResults, includeDomains, excludeDomains,
 *    fromDate, toDate (YYYY-MM-DD)} -> {results: [{type: "text"|"image", name, url, content}]}.
 * Only `type: "text"` entries are web results. No news search, no language parameter.
 * Its price and free tier: lib/providers/prices.ts.
 */
import { z } from "zod";
import type { SearchProvider } from "@/lib/engine/search/types";
import { buildUrl } from "@/lib/http/provider-client";
import { listedPrice } from "@/lib/providers/prices";
import { requestResults, requireApiKey, supports } from "./adapter-kit";
import { dateWindow } from "./dates";
import { buildQueryText } from "./query-text";

const responseSchema = z.object({
  results: z.array(
    z.object({
      type: z.string().nullish(),
      name: z.string().nullish(),
      url: z.string(),
      content: z.string().nullish(),
    }),
  ),
});

export const linkup: SearchProvider = {
  id: "linkup",
  displayName: "Linkup",
  keyEnv: ["LINKUP_API_KEY"],
  baseUrlEnv: "LINKUP_BASE_URL",
  defaultBaseUrl: "https://api.linkup.so/v1",
  docsUrl: "https://docs.linkup.so/api-reference/search/search",
  apiVersion: "v1",
  capabilities: supports({ filters: ["timeRange", "includeDomains", "excludeDomains"] }),
  price: listedPrice("linkup"),
  defaultTimeoutMs: 20_000,

  async search(call) {
    const apiKey = requireApiKey(call, linkup.displayName);
    const { options } = call;
    const window = dateWindow(call);
    return requestResults(call, buildUrl(call.baseUrl, "/search"), {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}` },
      json: {
        q: buildQueryText(call, linkup.capabilities.queryOperators),
        depth: "standard",
        outputType: "searchResults",
        maxResults: options.maxResults,
        includeDomains: options.includeDomains.length > 0 ? options.includeDomains : undefined,
        excludeDomains: options.excludeDomains.length > 0 ? options.excludeDomains : undefined,
        fromDate: window.from,
        toDate: window.to,
      },
      schema: responseSchema,
      results: (data) =>
        data.results
          .filter((r) => (r.type ?? "text") === "text")
          .map((r) => ({ title: r.name, url: r.url, snippet: r.content })),
    });
  },
};
