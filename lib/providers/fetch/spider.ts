/**
 * Spider (spider.cloud) scrape.
 * Docs: https://spider.cloud/docs/api (scrape) ; https://spider.cloud/docs/core/scraping-crawling
 * Wire: POST {base}/scrape, `Authorization: Bearer <key>`, JSON {url, return_format: "markdown"|"raw",
 *   request: "http"} -> a JSON array [{url, content, status, error, costs}].
 * Its price and free tier: lib/providers/prices.ts.
 */
import { z } from "zod";
import type { FetchProvider } from "@/lib/engine/fetch/types";
import { ProviderError } from "@/lib/engine/shared/errors";
import { buildUrl, parseResponse, requestJson } from "@/lib/http/provider-client";
import { listedPrice } from "@/lib/providers/prices";
import { assertTargetOk, markdownDocument, requireApiKey, withFacts } from "./adapter-kit";

const responseSchema = z.array(
  z.object({
    url: z.string().nullish(),
    content: z.string().nullish(),
    status: z.number().nullish(),
    error: z.string().nullish(),
  }),
);

export const spider: FetchProvider = {
  id: "spider",
  displayName: "Spider",
  keyEnv: ["SPIDER_API_KEY"],
  baseUrlEnv: "SPIDER_BASE_URL",
  defaultBaseUrl: "https://api.spider.cloud",
  docsUrl: "https://spider.cloud/docs/api",
  apiVersion: "v1 (unversioned path)",
  price: listedPrice("spider"),
  defaultTimeoutMs: 30_000,

  async fetch(call) {
    const apiKey = requireApiKey(call, spider.displayName);
    const response = await requestJson(buildUrl(call.baseUrl, "/scrape"), {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}` },
      json: { url: call.url.toString(), return_format: "markdown", request: "http" },
      signal: call.signal,
    });
    const [page] = parseResponse(responseSchema, response.json);
    if (page === undefined || page.error) {
      throw new ProviderError(
        "http_error",
        `Spider: ${page?.error ?? "no page returned"}`,
        page?.status ?? undefined,
      );
    }
    assertTargetOk(page.status, spider.displayName);
    return markdownDocument(
      { markdown: page.content, finalUrl: page.url, metadata: withFacts({ status: page.status }) },
      call.url.toString(),
      response,
      spider.displayName,
    );
  },
};
