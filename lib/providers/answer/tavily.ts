/**
 * Tavily answer (the search endpoint with include_answer).
 * Docs: https://docs.tavily.com/documentation/api-reference/endpoint/search (REST, no version segment)
 * Wire: POST {base}/search, `Authorization: Bearer <key>`, JSON body
 *   {query, search_depth: "advanced", include_answer: "advanced", max_results}
 *   -> {query, answer: string, results: [{title, url, content, score}], response_time}.
 * The answer carries no inline markers; the results are the pages it was written from.
 * Pricing (docs.tavily.com credits & pricing): advanced search = 2 credits; 1,000 free credits/month;
 * pay-as-you-go $0.008/credit.
 */
import { z } from "zod";
import type { AnswerProvider } from "@/lib/engine/answer/types";
import { buildUrl, parseResponse, requestJson } from "@/lib/http/provider-client";
import { TAVILY_ERRORS } from "@/lib/providers/error-rules";
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
  costPerRequestUsd: 0.016,
  freeTier: { requests: 500, period: "month" },
  defaultTimeoutMs: 60_000,
  defaultModel: "tavily-advanced",
  grounded: false,

  async answer(call) {
    const apiKey = requireApiKey(call, tavily.displayName);
    const response = await requestJson(buildUrl(call.baseUrl, "/search"), {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}` },
      errorRules: TAVILY_ERRORS,
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
