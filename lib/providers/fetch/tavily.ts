/**
 * Tavily Extract.
 * Docs: https://docs.tavily.com/documentation/api-reference/endpoint/extract
 * Wire: POST {base}/extract, `Authorization: Bearer <key>`, JSON {urls: [url], extract_depth: "basic",
 *   format: "markdown"|"text"} -> {results: [{url, raw_content, images}], failed_results: [{url, error}],
 *   response_time}.
 * Its price and free tier: lib/providers/prices.ts.
 */
import { z } from "zod";
import type { FetchProvider } from "@/lib/engine/fetch/types";
import { ProviderError } from "@/lib/engine/shared/errors";
import { buildUrl, parseResponse, requestJson } from "@/lib/http/provider-client";
import { listedPrice } from "@/lib/providers/prices";
import { markdownDocument, requireApiKey } from "./adapter-kit";

const responseSchema = z.object({
  results: z.array(z.object({ url: z.string().nullish(), raw_content: z.string().nullish() })).default([]),
  failed_results: z.array(z.object({ url: z.string().nullish(), error: z.string().nullish() })).default([]),
});

export const tavily: FetchProvider = {
  id: "tavily",
  displayName: "Tavily Extract",
  keyEnv: ["TAVILY_API_KEY"],
  baseUrlEnv: "TAVILY_BASE_URL",
  defaultBaseUrl: "https://api.tavily.com",
  docsUrl: "https://docs.tavily.com/documentation/api-reference/endpoint/extract",
  apiVersion: "2025 REST (unversioned)",
  price: listedPrice("tavily/fetch"),
  defaultTimeoutMs: 30_000,

  async fetch(call) {
    const apiKey = requireApiKey(call, tavily.displayName);
    const response = await requestJson(buildUrl(call.baseUrl, "/extract"), {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}` },
      json: {
        urls: [call.url.toString()],
        extract_depth: "basic",
        format: call.format === "text" ? "text" : "markdown",
      },
      signal: call.signal,
    });
    const body = parseResponse(responseSchema, response.json);
    const [result] = body.results;
    if (result === undefined) {
      const reason = body.failed_results[0]?.error ?? "no result";
      throw new ProviderError("http_error", `Tavily could not extract the page: ${reason}`, response.status);
    }
    return markdownDocument(
      { markdown: result.raw_content, finalUrl: result.url },
      call.url.toString(),
      response,
      tavily.displayName,
    );
  },
};
