/**
 * Scrapfly Web Scraping API. The key travels in the query string and is redacted from every message (tested).
 * Docs: https://scrapfly.io/docs/scrape-api/getting-started ; SDK example format="markdown":
 *   https://github.com/scrapfly/python-scrapfly/blob/master/examples/scrape_as_markdown.py
 * Wire: GET {base}/scrape?key=<key>&url=<encoded>&format=markdown -> {config, context, result: {content,
 *   status_code, url, content_type, format, success, error?}}. A large page comes as format "clob"/"blob"
 *   with `content` a download URL instead of the page (scrapfly/python-scrapfly scrapfly/api_response.py).
 * Its price and free tier: lib/providers/prices.ts.
 */
import { z } from "zod";
import type { FetchProvider } from "@/lib/engine/fetch/types";
import { ProviderError } from "@/lib/engine/shared/errors";
import { buildUrl, parseResponse, requestJson } from "@/lib/http/provider-client";
import { listedPrice } from "@/lib/providers/prices";
import { assertTargetOk, markdownDocument, requireApiKey, withFacts } from "./adapter-kit";

const responseSchema = z.object({
  result: z.object({
    content: z.string().nullish(),
    status_code: z.number().nullish(),
    url: z.string().nullish(),
    content_type: z.string().nullish(),
    format: z.string().nullish(),
  }),
});
/** Scrapfly's formats for content stored apart, whose `content` is where to download it. */
const LARGE_OBJECT_FORMATS = new Set(["clob", "blob"]);

export const scrapfly: FetchProvider = {
  id: "scrapfly",
  displayName: "Scrapfly",
  keyEnv: ["SCRAPFLY_API_KEY"],
  baseUrlEnv: "SCRAPFLY_BASE_URL",
  defaultBaseUrl: "https://api.scrapfly.io",
  docsUrl: "https://scrapfly.io/docs/scrape-api/getting-started",
  apiVersion: "2025 REST (unversioned)",
  price: listedPrice("scrapfly"),
  defaultTimeoutMs: 60_000,

  async fetch(call) {
    const apiKey = requireApiKey(call, scrapfly.displayName);
    const response = await requestJson(
      buildUrl(call.baseUrl, "/scrape", { key: apiKey, url: call.url.toString(), format: "markdown" }),
      { signal: call.signal },
    );
    const { result } = parseResponse(responseSchema, response.json);
    assertTargetOk(result.status_code, scrapfly.displayName);
    if (result.format && LARGE_OBJECT_FORMATS.has(result.format)) {
      throw new ProviderError(
        "too_large",
        `Scrapfly stored the page apart as a large object (${result.format})`,
      );
    }
    return markdownDocument(
      { markdown: result.content, finalUrl: result.url, metadata: withFacts({ status: result.status_code }) },
      call.url.toString(),
      response,
      scrapfly.displayName,
    );
  },
};
