/**
 * Scrapfly Web Scraping API. The key travels in the query string and is redacted from every message (tested).
 * Docs: https://scrapfly.io/docs/scrape-api/getting-started ; SDK example format="markdown":
 *   https://github.com/scrapfly/python-scrapfly/blob/master/examples/scrape_as_markdown.py
 * Wire: GET {base}/scrape?key=<key>&url=<encoded>&format=markdown -> {config, context, result: {content,
 *   status_code, url, content_type, success, error?}}.
 * Pricing (scrapfly.io/pricing): 1 credit a plain request; 1,000 free credits a month; Discovery
 * $30/200,000 ≈ $0.00015.
 */
import { z } from "zod";
import type { FetchProvider } from "@/lib/engine/fetch/types";
import { buildUrl, parseResponse, requestJson } from "@/lib/http/provider-client";
import { SCRAPFLY_ERRORS } from "@/lib/providers/error-rules";
import { assertTargetOk, markdownDocument, requireApiKey, withFacts } from "./adapter-kit";

const responseSchema = z.object({
  result: z.object({
    content: z.string().nullish(),
    status_code: z.number().nullish(),
    url: z.string().nullish(),
    content_type: z.string().nullish(),
  }),
});

export const scrapfly: FetchProvider = {
  id: "scrapfly",
  displayName: "Scrapfly",
  keyEnv: ["SCRAPFLY_API_KEY"],
  baseUrlEnv: "SCRAPFLY_BASE_URL",
  defaultBaseUrl: "https://api.scrapfly.io",
  docsUrl: "https://scrapfly.io/docs/scrape-api/getting-started",
  apiVersion: "2025 REST (unversioned)",
  costPerRequestUsd: 0.00015,
  freeTier: { requests: 1000, period: "month" },
  defaultTimeoutMs: 60_000,

  async fetch(call) {
    const apiKey = requireApiKey(call, scrapfly.displayName);
    const response = await requestJson(
      buildUrl(call.baseUrl, "/scrape", { key: apiKey, url: call.url.toString(), format: "markdown" }),
      { signal: call.signal, errorRules: SCRAPFLY_ERRORS },
    );
    const { result } = parseResponse(responseSchema, response.json);
    assertTargetOk(result.status_code, scrapfly.displayName);
    return markdownDocument(
      { markdown: result.content, finalUrl: result.url, metadata: withFacts({ status: result.status_code }) },
      call.url.toString(),
      response,
      scrapfly.displayName,
    );
  },
};
