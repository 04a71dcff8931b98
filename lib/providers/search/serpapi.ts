/**
 * SerpApi — Google Search engine.
 * Docs: https://serpapi.com/search-api (engine=google)
 * Wire: GET {base}/search.json with query parameters
 *   engine=google, q (Google operators rebuilt), num, gl, safe=active|off, tbs=qdr:d|w|m|y, api_key
 *   -> {search_metadata, organic_results: [{position, title, link, snippet?, date?}], error?}.
 * The key travels in the query string (SerpApi has no header auth); the HTTP client never puts URLs
 * in error messages, so it does not leak into traces.
 * A successful search with nothing found answers 200 with `error: "Google hasn't returned any results…"`.
 * Pricing (serpapi.com/pricing): free plan 250 searches/month; Developer $75 per 5,000 ($0.015).
 */
import { z } from "zod";
import type { SearchProvider } from "@/lib/engine/search/types";
import { ProviderError } from "@/lib/engine/shared/errors";
import { buildUrl, parseResponse, requestJson } from "@/lib/http/provider-client";
import { requireApiKey, supports, toProviderResponse } from "./adapter-kit";
import { fromGoogleOrganic, googleOrganicResults, googleSafe, googleTbs } from "./google-params";
import { buildQueryText } from "./query-text";

const MAX_RESULTS = 100;

const responseSchema = z.object({
  error: z.string().nullish(),
  organic_results: googleOrganicResults,
});

export const serpapi: SearchProvider = {
  id: "serpapi",
  displayName: "SerpApi",
  keyEnv: ["SERPAPI_API_KEY"],
  baseUrlEnv: "SERPAPI_BASE_URL",
  defaultBaseUrl: "https://serpapi.com",
  docsUrl: "https://serpapi.com/search-api",
  apiVersion: "2025 REST (unversioned), engine=google",
  capabilities: supports({
    filters: ["timeRange", "region", "safesearch"],
    queryOperators: ["site", "-site", "filetype", "intitle", "phrase", "before", "after"],
  }),
  costPerRequestUsd: 0.015,
  freeTier: { requests: 250, period: "month" },
  defaultTimeoutMs: 15_000,

  async search(call) {
    const apiKey = requireApiKey(call, serpapi.displayName);
    const { options } = call;
    const url = buildUrl(call.baseUrl, "/search.json", {
      engine: "google",
      q: buildQueryText(call, serpapi.capabilities.queryOperators),
      num: Math.min(options.maxResults, MAX_RESULTS),
      gl: options.region,
      safe: options.safesearch ? googleSafe(options.safesearch) : undefined,
      tbs: options.timeRange ? googleTbs(options.timeRange) : undefined,
      api_key: apiKey,
    });
    const response = await requestJson(url, { signal: call.signal });
    const data = parseResponse(responseSchema, response.json);
    if (data.error && !data.organic_results && !/hasn't returned any results/i.test(data.error)) {
      throw new ProviderError("http_error", `SerpApi: ${data.error}`, response.status);
    }
    return toProviderResponse(fromGoogleOrganic(data.organic_results), call, response);
  },
};
