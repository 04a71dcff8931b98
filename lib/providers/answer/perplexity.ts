/**
 * Perplexity Sonar (chat completions with web search).
 * Docs: https://docs.perplexity.ai/api-reference/chat-completions-post (REST, unversioned; OpenAI-compatible)
 * Wire: POST {base}/chat/completions, `Authorization: Bearer <key>`, JSON body
 *   {model: "sonar", messages: [{role, content}], max_tokens, web_search_options: {search_context_size}}
 *   -> {model, choices: [{message: {content: string | [{type: "text", text}]}}], citations?: [url],
 *       search_results?: [{title, url, date?, snippet?}], usage: {prompt_tokens, completion_tokens, …}}
 *   (perplexityai/perplexity-node src/generated/api.ts). Sonar bills both token counts on top of its request fee.
 * The answer cites with [n] markers into search_results (titled; newer) or citations (bare URLs; older).
 * Its price and free tier: lib/providers/prices.ts.
 */
import { z } from "zod";
import type { AnswerProvider } from "@/lib/engine/answer/types";
import { parseResponse } from "@/lib/http/provider-client";
import { listedPrice } from "@/lib/providers/prices";
import { requireApiKey } from "@/lib/providers/search/adapter-kit";
import { ANSWER_MAX_OUTPUT_TOKENS, toProviderAnswer } from "./answer-kit";
import { chatCompletionSchema, chatUsage, firstChoice, postChatCompletion } from "./chat-completions";

const SYSTEM = "Answer accurately and concisely in Markdown, citing your sources.";

const responseSchema = chatCompletionSchema.extend({
  citations: z.array(z.string()).nullish(),
  search_results: z.array(z.object({ title: z.string().nullish(), url: z.string() })).nullish(),
});

export const perplexity: AnswerProvider = {
  id: "perplexity",
  displayName: "Perplexity Sonar",
  keyEnv: ["PERPLEXITY_API_KEY"],
  baseUrlEnv: "PERPLEXITY_BASE_URL",
  defaultBaseUrl: "https://api.perplexity.ai",
  docsUrl: "https://docs.perplexity.ai/api-reference/chat-completions-post",
  apiVersion: "2025 REST (unversioned)",
  price: listedPrice("perplexity/answer"),
  defaultTimeoutMs: 90_000,
  defaultModel: "sonar",
  grounded: false,
  tokenCeiling: (query) => ({ input: SYSTEM.length + query.length, output: ANSWER_MAX_OUTPUT_TOKENS }),

  async answer(call) {
    const apiKey = requireApiKey(call, perplexity.displayName);
    const response = await postChatCompletion({
      baseUrl: call.baseUrl,
      headers: { authorization: `Bearer ${apiKey}` },
      model: call.model,
      system: SYSTEM,
      user: call.query,
      extra: { max_tokens: ANSWER_MAX_OUTPUT_TOKENS, web_search_options: { search_context_size: "low" } },
      signal: call.signal,
    });
    const data = parseResponse(responseSchema, response.json);
    const { content } = firstChoice(data);
    // Both lists are in citation-number order; search_results carries titles, so it wins when present.
    const sources = data.search_results?.length
      ? data.search_results
      : (data.citations ?? []).map((url) => ({ url }));
    return toProviderAnswer({
      displayName: perplexity.displayName,
      model: data.model ?? call.model,
      text: content,
      sources,
      http: response,
      usage: chatUsage(data),
    });
  },
};
