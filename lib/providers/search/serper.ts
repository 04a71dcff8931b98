/**
 * Serper (Google results).
 * Docs: https://serper.dev/playground (API reference: POST https://google.serper.dev/search)
 * Wire: POST {base}/search, `X-API-KEY: <key>`, JSON body {q (Google operators rebuilt), num, gl, tbs}
 *   where tbs is qdr:d|w|m|y or cdr:1,cd_min:MM/DD/YYYY,cd_max:MM/DD/YYYY
 *   -> {searchParameters, organic: [{title, link, snippet?, date?, position}]}.
 * Pricing (serper.dev): 2,500 free queries (lifetime); $50 per 50,000 queries ($0.001).
 */
import { z } from "zod";
import type { SearchProvider } from "@/lib/engine/search/types";
import { buildUrl } from "@/lib/http/provider-client";
import { requestResults, requireApiKey, supports } from "./adapter-kit";
import { fromGoogleOrganic, googleOrganicResults, googleTbs } from "./google-params";
import { buildQueryText } from "./query-text";

const MAX_RESULTS = 100;

const responseSchema = z.object({
  organic: googleOrganicResults,
});

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
  costPerRequestUsd: 0.001,
  freeTier: { requests: 2500, period: "lifetime" },
  defaultTimeoutMs: 10_000,

  async search(call) {
    const apiKey = requireApiKey(call, serper.displayName);
    const { options } = call;
    const body = {
      q: buildQueryText(call, serper.capabilities.queryOperators),
      num: Math.min(options.maxResults, MAX_RESULTS),
      gl: options.region,
      tbs: options.timeRange ? googleTbs(options.timeRange) : undefined,
    };
    return requestResults(call, buildUrl(call.baseUrl, "/search"), {
      method: "POST",
      headers: { "x-api-key": apiKey },
      json: body,
      schema: responseSchema,
      results: (data) => fromGoogleOrganic(data.organic),
    });
  },
};
