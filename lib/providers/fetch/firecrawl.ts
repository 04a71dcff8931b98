/**
 * Firecrawl scrape (v2).
 * Docs: https://docs.firecrawl.dev/api-reference/endpoint/scrape (v2)
 * Wire: POST {base}/v2/scrape, `Authorization: Bearer <key>`, JSON {url, formats: ["markdown"] (+ "html"),
 *   onlyMainContent: true} -> {success, data: {markdown, html?, metadata: {title, description, language
 *   (each a string or an array of strings), sourceURL, url?, statusCode, error?, publishedTime?}}}.
 *   OpenAPI: firecrawl/firecrawl-docs api-reference/v2-openapi.json (ScrapeResponse).
 *   onlyMainContent: true} -> {success, data: {markdown, html?, metadata: {title, description, language,
 *   sourceURL, url?, statusCode, error?, publishedTime?}}}.
 * Its price and free tier: lib/providers/prices.ts.
 */
import { z } from "zod";
import type { FetchProvider } from "@/lib/engine/fetch/types";
import { ProviderError } from "@/lib/engine/shared/errors";
import { buildUrl, parseResponse, requestJson } from "@/lib/http/provider-client";
import { listedPrice } from "@/lib/providers/prices";
import { assertTargetOk, markdownDocument, requireApiKey, withFacts } from "./adapter-kit";

/** Firecrawl's page facts come as a string or, for a page that states them twice, a list of strings. */
const fact = z
  .union([z.string(), z.array(z.string())])
  .nullish()
  .transform((value) => (Array.isArray(value) ? value.find((item) => item.trim() !== "") : value));

const responseSchema = z.object({
  success: z.boolean(),
  error: z.string().nullish(),
  data: z
    .object({
      markdown: z.string().nullish(),
      html: z.string().nullish(),
      metadata: z
        .object({
          title: fact,
          description: fact,
          language: fact,
          sourceURL: z.string().nullish(),
          url: z.string().nullish(),
          statusCode: z.number().nullish(),
          publishedTime: z.string().nullish(),
        })
        .nullish(),
    })
    .nullish(),
});

export const firecrawl: FetchProvider = {
  id: "firecrawl",
  displayName: "Firecrawl",
  keyEnv: ["FIRECRAWL_API_KEY"],
  baseUrlEnv: "FIRECRAWL_BASE_URL",
  defaultBaseUrl: "https://api.firecrawl.dev",
  docsUrl: "https://docs.firecrawl.dev/api-reference/endpoint/scrape",
  apiVersion: "v2",
  price: listedPrice("firecrawl/fetch"),
  defaultTimeoutMs: 30_000,

  async fetch(call) {
    const apiKey = requireApiKey(call, firecrawl.displayName);
    const response = await requestJson(buildUrl(call.baseUrl, "/v2/scrape"), {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}` },
      json: {
        url: call.url.toString(),
        formats: call.format === "html" ? ["markdown", "html"] : ["markdown"],
        onlyMainContent: true,
      },
      signal: call.signal,
    });
    const body = parseResponse(responseSchema, response.json);
    if (!body.success || !body.data) {
      throw new ProviderError("http_error", `Firecrawl: ${body.error ?? "scrape failed"}`, response.status);
    }
    const meta = body.data.metadata;
    assertTargetOk(meta?.statusCode, firecrawl.displayName);
    return markdownDocument(
      {
        markdown: body.data.markdown,
        html: body.data.html,
        title: meta?.title,
        finalUrl: meta?.url ?? meta?.sourceURL,
        metadata: withFacts({
          description: meta?.description,
          language: meta?.language,
          published: meta?.publishedTime,
          status: meta?.statusCode,
        }),
      },
      call.url.toString(),
      response,
      firecrawl.displayName,
    );
  },
};
