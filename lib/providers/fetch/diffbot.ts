/**
 * Diffbot Article API. The token travels in the query string and is redacted from every message (tested).
 * Docs: https://docs.diffbot.com/reference/article
 * Wire: GET {base}/v3/article?token=<key>&url=<encoded> -> {request, objects: [{type: "article", title,
 *   text, html, author, date, estimatedDate?, pageUrl, resolvedPageUrl?, humanLanguage, siteName}]};
 *   errors as {errorCode, error} (some with HTTP 200).
 * Its price and free tier: lib/providers/prices.ts.
 */
import { z } from "zod";
import type { FetchProvider } from "@/lib/engine/fetch/types";
import { ProviderError } from "@/lib/engine/shared/errors";
import { buildUrl, parseResponse, requestJson } from "@/lib/http/provider-client";
import { listedPrice } from "@/lib/providers/prices";
import { markdownDocument, requireApiKey, withFacts } from "./adapter-kit";

const responseSchema = z.object({
  errorCode: z.number().nullish(),
  error: z.string().nullish(),
  objects: z
    .array(
      z.object({
        title: z.string().nullish(),
        text: z.string().nullish(),
        html: z.string().nullish(),
        author: z.string().nullish(),
        date: z.string().nullish(),
        pageUrl: z.string().nullish(),
        resolvedPageUrl: z.string().nullish(),
        humanLanguage: z.string().nullish(),
        siteName: z.string().nullish(),
      }),
    )
    .nullish(),
});

export const diffbot: FetchProvider = {
  id: "diffbot",
  displayName: "Diffbot Article",
  keyEnv: ["DIFFBOT_API_KEY"],
  baseUrlEnv: "DIFFBOT_BASE_URL",
  defaultBaseUrl: "https://api.diffbot.com",
  docsUrl: "https://docs.diffbot.com/reference/article",
  apiVersion: "v3",
  price: listedPrice("diffbot"),
  defaultTimeoutMs: 30_000,

  async fetch(call) {
    const apiKey = requireApiKey(call, diffbot.displayName);
    const response = await requestJson(
      buildUrl(call.baseUrl, "/v3/article", { token: apiKey, url: call.url.toString() }),
      { signal: call.signal },
    );
    const body = parseResponse(responseSchema, response.json);
    const [article] = body.objects ?? [];
    if (body.errorCode || article === undefined) {
      throw new ProviderError(
        body.errorCode === 401 ? "bad_key" : "http_error",
        `Diffbot: ${body.error ?? "no article found"}`,
        body.errorCode ?? response.status,
      );
    }
    return markdownDocument(
      {
        html: article.html,
        markdown: article.html ? undefined : article.text,
        title: article.title,
        finalUrl: article.resolvedPageUrl ?? article.pageUrl,
        metadata: withFacts({
          byline: article.author,
          published: article.date,
          language: article.humanLanguage,
          site_name: article.siteName,
        }),
      },
      call.url.toString(),
      response,
      diffbot.displayName,
    );
  },
};
