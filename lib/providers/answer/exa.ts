/**
 * Exa Answer.
 * Docs: https://exa.ai/docs/reference/answer (REST, unversioned)
 * Wire: POST {base}/answer, `x-api-key: <key>`, JSON body {query, text: false}
 *   -> {answer: string, citations: [{id, url, title, author?, publishedDate?}], costDollars?}.
 * The answer carries no inline markers; the citations are the pages it was generated from.
 * Its price and free tier: lib/providers/prices.ts.
 */
import { z } from "zod";
import type { AnswerProvider } from "@/lib/engine/answer/types";
import { buildUrl, parseResponse, requestJson } from "@/lib/http/provider-client";
import { listedPrice } from "@/lib/providers/prices";
import { requireApiKey } from "@/lib/providers/search/adapter-kit";
import { toProviderAnswer } from "./answer-kit";

const responseSchema = z.object({
  answer: z.string(),
  citations: z.array(z.object({ url: z.string(), title: z.string().nullish() })).nullish(),
});

export const exa: AnswerProvider = {
  id: "exa",
  displayName: "Exa Answer",
  keyEnv: ["EXA_API_KEY"],
  baseUrlEnv: "EXA_BASE_URL",
  defaultBaseUrl: "https://api.exa.ai",
  docsUrl: "https://exa.ai/docs/reference/answer",
  apiVersion: "2025 REST (unversioned)",
  price: listedPrice("exa/answer"),
  defaultTimeoutMs: 60_000,
  defaultModel: "exa",
  grounded: false,

  async answer(call) {
    const apiKey = requireApiKey(call, exa.displayName);
    const response = await requestJson(buildUrl(call.baseUrl, "/answer"), {
      method: "POST",
      headers: { "x-api-key": apiKey },
      json: { query: call.query, text: false },
      signal: call.signal,
    });
    const data = parseResponse(responseSchema, response.json);
    return toProviderAnswer({
      displayName: exa.displayName,
      model: call.model,
      text: data.answer,
      sources: data.citations ?? [],
      http: response,
    });
  },
};
