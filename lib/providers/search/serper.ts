/**
 * Serper (Google results) — web and news search.
 * Docs: https://serper.dev/playground (API reference: POST https://google.serper.dev/search, /news)
 * Wire: POST {base}/search (news: /news), `X-API-KEY: <key>`, JSON body {q (Google operators rebuilt), num,
 *   gl, hl (language), tbs} where tbs is qdr:d|w|m|y
 *   -> web: {searchParameters, organic: [{title, link, snippet?, date?, position}]};
 *      news: {searchParameters, news: [{title, link, snippet?, date? ("3 hours ago"), source?, imageUrl?, position}]}.
 * Its price and free tier: lib/providers/prices.ts.
 */
import { z } from "zod";
import type { ProviderCall, SearchProvider } from "@/lib/engine/search/types";
import { buildUrl } from "@/lib/http/provider-client";
import { listedPrice } from "@/lib/providers/prices";
import { type RawResult, requestResults, requireApiKey, supports } from "./adapter-kit";
import {
  fromGoogleNews,
  fromGoogleOrganic,
  googleNewsResults,
  googleOrganicResults,
  googleTbs,
} from "./google-params";
import { buildQueryText } from "./query-text";

const MAX_RESULTS = 100;

const webSchema = z.object({ organic: googleOrganicResults });
const newsSchema = z.object({ news: googleNewsResults });

export const serper: SearchProvider = {
  id: "serper",
  displayName: "Serper",
  keyEnv: ["SERPER_API_KEY"],
  baseUrlEnv: "SERPER_BASE_URL",
  defaultBaseUrl: "https://google.serper.dev",
  docsUrl: "https://serper.dev/playground",
  apiVersion: "2025 REST (unversioned)",
  capabilities: supports({
    filters: ["timeRange", "region"],
    queryOperators: ["site", "-site", "filetype", "intitle", "phrase", "before", "after"],
  }),
  price: listedPrice("serper"),
  defaultTimeoutMs: 10_000,

  search: (call) => serperRequest(call, "/search", webSchema, (data) => fromGoogleOrganic(data.organic)),
  news: (call) => serperRequest(call, "/news", newsSchema, (data) => fromGoogleNews(data.news)),
};

async function serperRequest<S extends z.ZodType>(
  call: ProviderCall,
  path: string,
  schema: S,
  results: (data: z.output<S>) => readonly RawResult[],
) {
  const apiKey = requireApiKey(call, serper.displayName);
  const { options } = call;
  return requestResults(call, buildUrl(call.baseUrl, path), {
    method: "POST",
    headers: { "x-api-key": apiKey },
    json: {
      q: buildQueryText(call, serper.capabilities.queryOperators),
      num: Math.min(options.maxResults, MAX_RESULTS),
      gl: options.region,
      hl: options.language,
      tbs: options.timeRange ? googleTbs(options.timeRange) : undefined,
    },
    schema,
    results,
  });
}
