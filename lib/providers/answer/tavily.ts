/**
 * Tavily answer (the search endpoint with include_answer).
 * Docs: https://docs.tavily.com/documentation/api-reference/endpoint/search (REST, no version segment)
 * Wire: POST {base}/search, `Authorization: Bearer <key>`, JSON body
 *   {query, search_depth: "advanced", include_answer: "advanced", max_results}
 *   -> {query, answer: string, results: [{title, url, content, score}], response_time}.
 * The answer carries no inline markers; the results are the pages it was written from.
 * Its price and free tier: lib/providers/prices.ts.
 */
import { z } from "zod";
import type { AnswerProvider } from "@/lib/engine/answer/types";
import { buildUrl, parseResponse, requestJson } from "@/lib/http/provider-client";
import { listedPrice } from "@/lib/providers/prices";
import { requireApiKey } from "@/lib/providers/search/adapter-kit";
import { toProviderAnswer } from "./answer-kit";

const MAX_SOURCES = 10;

const responseSchema = z.object({
  answer: z.string().nullish(),
  results: z.array(z.object({ title: z.string().nullish(), url: z.string() })),
});

export const tavily: AnswerProvider = {
  id: "tavily",
  displayName: "Tavily Answer",
  keyEnv: ["TAVILY_API_KEY"],
  baseUrlEnv: "TAVILY_BASE_URL",
  defaultBaseUrl: "https://api.tavily.com",
  docsUrl: "https://docs.tavily.com/documentation/api-reference/endpoint/search",
  apiVersion: "2025 REST (unversioned)",
  price: listedPrice("tavily/answer"),
  defaultTimeoutMs: 60_000,
  defaultModel: "tavily-advanced",
  grounded: false,

  async answer(call) {
    const apiKey = requireApiKey(call, tavily.displayName);
    const response = await requestJson(buildUrl(call.baseUrl, "/search"), {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}` },
      json: {
        query: call.query,
        search_depth: "advanced",
        include_answer: "advanced",
        max_results: MAX_SOURCES,
      },
      signal: call.signal,
    });
    const data = parseResponse(responseSchema, response.json);
    return toProviderAnswer({
      displayName: tavily.displayName,
      model: call.model,
      text: data.answer,
      sources: data.results,
      http: response,
    });
  },
};
