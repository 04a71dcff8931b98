/**
 * Jina Reader (r.jina.ai): works without a key (about 20 requests/minute per IP) and with one (higher
 * limits, token-metered).
 * Docs: https://jina.ai/reader/ (API form, "Reader" section); README https://github.com/jina-ai/reader
 * Wire: POST {base}/ with JSON {url}, `Accept: application/json`, `X-Return-Format: markdown|html|text`,
 *   optional `Authorization: Bearer <key>` -> {code, status, data: {title, description, url, content,
 *   publishedTime?, usage: {tokens}}}.
 * Its price and free tier: lib/providers/prices.ts.
 */
import { z } from "zod";
import type { FetchProvider } from "@/lib/engine/fetch/types";
import { buildUrl, parseResponse, requestJson } from "@/lib/http/provider-client";
import { listedPrice } from "@/lib/providers/prices";
import { markdownDocument, withFacts } from "./adapter-kit";

const responseSchema = z.object({
  data: z.object({
    title: z.string().nullish(),
    description: z.string().nullish(),
    url: z.string().nullish(),
    content: z.string().nullish(),
    publishedTime: z.string().nullish(),
  }),
});

export const jina: FetchProvider = {
  id: "jina",
  displayName: "Jina Reader",
  keyEnv: ["JINA_API_KEY"],
  keyOptional: true,
  baseUrlEnv: "JINA_READER_BASE_URL",
  defaultBaseUrl: "https://r.jina.ai",
  docsUrl: "https://jina.ai/reader/",
  apiVersion: "2025 REST (unversioned)",
  price: listedPrice("jina/fetch"),
  defaultTimeoutMs: 30_000,

  async fetch(call) {
    const headers: Record<string, string> = {
      accept: "application/json",
      "x-return-format": call.format === "html" ? "html" : "markdown",
    };
    if (call.apiKey) headers.authorization = `Bearer ${call.apiKey}`;
    const response = await requestJson(buildUrl(call.baseUrl, "/"), {
      method: "POST",
      headers,
      json: { url: call.url.toString() },
      signal: call.signal,
    });
    const { data } = parseResponse(responseSchema, response.json);
    const content = data.content ?? "";
    return markdownDocument(
      {
        markdown: call.format === "html" ? undefined : content,
        html: call.format === "html" ? content : undefined,
        title: data.title,
        finalUrl: data.url,
        metadata: withFacts({ description: data.description, published: data.publishedTime }),
      },
      call.url.toString(),
      response,
      jina.displayName,
    );
  },
};
