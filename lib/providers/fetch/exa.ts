/**
 * Exa contents.
 * Docs: https://exa.ai/docs/reference/get-contents ; per-URL statuses: https://exa.ai/docs/changelog/contents-endpoint-status-changes
 * Wire: POST {base}/contents, `x-api-key: <key>`, JSON {urls: [url], text: true} -> {results: [{id, url,
 *   title, author, publishedDate, text}], statuses: [{id, status: "success"|"error", error: {tag,
 *   httpStatusCode}}]}; URL-level failures come as 200 with an error status.
 * Its price and free tier: lib/providers/prices.ts.
 */
import { z } from "zod";
import type { FetchProvider } from "@/lib/engine/fetch/types";
import { ProviderError } from "@/lib/engine/shared/errors";
import { buildUrl, parseResponse, requestJson } from "@/lib/http/provider-client";
import { listedPrice } from "@/lib/providers/prices";
import { markdownDocument, requireApiKey, withFacts } from "./adapter-kit";

const responseSchema = z.object({
  results: z
    .array(
      z.object({
        url: z.string().nullish(),
        title: z.string().nullish(),
        author: z.string().nullish(),
        publishedDate: z.string().nullish(),
        text: z.string().nullish(),
      }),
    )
    .default([]),
  statuses: z
    .array(
      z.object({
        status: z.string(),
        error: z.object({ tag: z.string().nullish(), httpStatusCode: z.number().nullish() }).nullish(),
      }),
    )
    .nullish(),
});

export const exa: FetchProvider = {
  id: "exa",
  displayName: "Exa contents",
  keyEnv: ["EXA_API_KEY"],
  baseUrlEnv: "EXA_BASE_URL",
  defaultBaseUrl: "https://api.exa.ai",
  docsUrl: "https://exa.ai/docs/reference/get-contents",
  apiVersion: "2025 REST (unversioned)",
  price: listedPrice("exa/fetch"),
  defaultTimeoutMs: 30_000,

  async fetch(call) {
    const apiKey = requireApiKey(call, exa.displayName);
    const response = await requestJson(buildUrl(call.baseUrl, "/contents"), {
      method: "POST",
      headers: { "x-api-key": apiKey },
      json: { urls: [call.url.toString()], text: true },
      signal: call.signal,
    });
    const body = parseResponse(responseSchema, response.json);
    const failure = body.statuses?.find((s) => s.status === "error")?.error;
    const [result] = body.results;
    if (result === undefined || failure) {
      throw new ProviderError(
        "http_error",
        `Exa could not fetch the page (${failure?.tag ?? "no result"})`,
        failure?.httpStatusCode ?? undefined,
      );
    }
    return markdownDocument(
      {
        markdown: result.text,
        title: result.title,
        finalUrl: result.url,
        metadata: withFacts({ byline: result.author, published: result.publishedDate }),
      },
      call.url.toString(),
      response,
      exa.displayName,
    );
  },
};
