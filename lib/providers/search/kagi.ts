/**
 * Kagi Search API (v0).
 * Docs: https://help.kagi.com/kagi/api/search.html (v0; a v1 API is in preview at kagi.com/api/docs)
 * Wire: GET {base}/search?q=&limit=, `Authorization: Bot <key>`
 *   -> {meta: {id, node, ms, api_balance}, data: [{t: 0, url, title, snippet?, published?} | {t: 1, list: [...]}]}.
 * Only `t: 0` entries are search results (`t: 1` is related searches). v0 has no time, region or safesearch
 * parameters, so operators (site/-site/filetype/intitle/"phrase") go into `q`.
 * No news search (the v0 search API has none; its Enrichment API's news index is another product, priced
 * apart) and no language parameter.
 * Its price and free tier: lib/providers/prices.ts.
 */
import { z } from "zod";
import type { SearchProvider } from "@/lib/engine/search/types";
import { buildUrl } from "@/lib/http/provider-client";
import { listedPrice } from "@/lib/providers/prices";
import { requestResults, requireApiKey, supports } from "./adapter-kit";
import { buildQueryText } from "./query-text";

const SEARCH_RESULT = 0;

const responseSchema = z.object({
  data: z
    .array(
      z.object({
        t: z.number(),
        url: z.string().nullish(),
        title: z.string().nullish(),
        snippet: z.string().nullish(),
        published: z.string().nullish(),
      }),
    )
    .nullish(),
});

export const kagi: SearchProvider = {
  id: "kagi",
  displayName: "Kagi",
  keyEnv: ["KAGI_API_KEY"],
  baseUrlEnv: "KAGI_BASE_URL",
  defaultBaseUrl: "https://kagi.com/api/v0",
  docsUrl: "https://help.kagi.com/kagi/api/search.html",
  apiVersion: "v0",
  capabilities: supports({ queryOperators: ["site", "-site", "filetype", "intitle", "phrase"] }),
  price: listedPrice("kagi"),
  defaultTimeoutMs: 15_000,

  async search(call) {
    const apiKey = requireApiKey(call, kagi.displayName);
    const url = buildUrl(call.baseUrl, "/search", {
      q: buildQueryText(call, kagi.capabilities.queryOperators),
      limit: call.options.maxResults,
    });
    return requestResults(call, url, {
      headers: { authorization: `Bot ${apiKey}` },
      schema: responseSchema,
      results: (data) =>
        (data.data ?? [])
          .filter((item) => item.t === SEARCH_RESULT)
          .map((r) => ({ title: r.title, url: r.url, snippet: r.snippet, publishedAt: r.published })),
    });
  },
};
