/**
 * Firecrawl's JSON format (LLM extraction), v2 scrape: Firecrawl reads the page itself and fills the schema.
 * Docs: https://docs.firecrawl.dev/features/llm-extract and https://docs.firecrawl.dev/api-reference/endpoint/scrape
 * Wire: POST {base}/v2/scrape, `Authorization: Bearer <key>`, JSON {url, formats: [{type: "json", schema,
 *   prompt?}], onlyMainContent: true} -> {success, data: {json: {...}, metadata: {statusCode, ...}}}
 *   (v1's jsonOptions is gone in v2).
 * Its price and free tier: lib/providers/prices.ts.
 */
import { z } from "zod";
import type { ReadingExtractor } from "@/lib/engine/extract/types";
import { ProviderError } from "@/lib/engine/shared/errors";
import { buildUrl, parseResponse, requestJson } from "@/lib/http/provider-client";
import { assertTargetOk, requireApiKey } from "@/lib/providers/fetch/adapter-kit";
import { listedPrice } from "@/lib/providers/prices";

const responseSchema = z.object({
  success: z.boolean(),
  error: z.string().nullish(),
  data: z
    .object({
      json: z.unknown().optional(),
      metadata: z.object({ statusCode: z.number().nullish() }).nullish(),
    })
    .nullish(),
});

export const firecrawlExtractor: ReadingExtractor = {
  id: "firecrawl",
  displayName: "Firecrawl",
  keyEnv: ["FIRECRAWL_API_KEY"],
  baseUrlEnv: "FIRECRAWL_BASE_URL",
  defaultBaseUrl: "https://api.firecrawl.dev",
  docsUrl: "https://docs.firecrawl.dev/features/llm-extract",
  apiVersion: "v2",
  price: listedPrice("firecrawl/extract"),
  defaultTimeoutMs: 60_000,
  reads: "url",

  async extract(call) {
    const apiKey = requireApiKey(call, firecrawlExtractor.displayName);
    const response = await requestJson(buildUrl(call.baseUrl, "/v2/scrape"), {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}` },
      json: {
        url: call.url,
        formats: [{ type: "json", schema: call.schema, ...(call.prompt && { prompt: call.prompt }) }],
        onlyMainContent: true,
      },
      signal: call.signal,
    });
    const body = parseResponse(responseSchema, response.json);
    if (!body.success || !body.data) {
      throw new ProviderError("http_error", `Firecrawl: ${body.error ?? "scrape failed"}`, response.status);
    }
    assertTargetOk(body.data.metadata?.statusCode, firecrawlExtractor.displayName);
    if (body.data.json === undefined || body.data.json === null)
      throw new ProviderError("invalid_response", "Firecrawl returned no json");
    return { json: JSON.stringify(body.data.json), httpStatus: response.status, bytes: response.bytes };
  },
};
