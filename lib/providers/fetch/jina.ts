/**
 * Jina Reader (r.jina.ai): works without a key (about 20 requests/minute per IP) and with one (higher
 * limits, token-metered).
 * Docs: https://jina.ai/reader/ (API form, "Reader" section); README https://github.com/jina-ai/reader
 * Wire: POST {base}/ with JSON {url}, `Accept: application/json`, `X-Return-Format: markdown|html`,
 *   optional `Authorization: Bearer <key>` -> {code, status, data: {title, description, url, content
 *   (markdown) | html (X-Return-Format: html, the page's whole document), publishedTime?, warning?, usage:
 *   {tokens}}}; a target that answered an error status still comes back 200, with `warning: "Target URL
 *   returned error 404: Not Found"` (jina-ai/reader src/services/snapshot-formatter.ts).
 * Its price and free tier: lib/providers/prices.ts.
 */
import { z } from "zod";
import type { FetchProvider } from "@/lib/engine/fetch/types";
import { buildUrl, parseResponse, requestJson } from "@/lib/http/provider-client";
import { listedPrice } from "@/lib/providers/prices";
import { assertTargetOk, htmlDocument, markdownDocument, withFacts } from "./adapter-kit";

const responseSchema = z.object({
  data: z.object({
    title: z.string().nullish(),
    description: z.string().nullish(),
    url: z.string().nullish(),
    content: z.string().nullish(),
    html: z.string().nullish(),
    publishedTime: z.string().nullish(),
    warning: z.string().nullish(),
  }),
});
/** How Reader reports the target's own error status: it answers 200 either way. */
const TARGET_ERROR = /Target URL returned error (\d{3})/;

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
    const targetStatus = TARGET_ERROR.exec(data.warning ?? "")?.[1];
    assertTargetOk(targetStatus === undefined ? undefined : Number(targetStatus), jina.displayName);
    const pageUrl = data.url || call.url.toString();
    // The HTML answer is the whole document: our own extraction finds its main content.
    if (call.format === "html") return htmlDocument(data.html ?? "", pageUrl, response, call.signal);
    return markdownDocument(
      {
        markdown: data.content,
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
