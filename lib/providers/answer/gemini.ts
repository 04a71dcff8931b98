/**
 * Gemini, grounded in our own web search results (the caller's web_search via call.grounding()).
 * Docs: https://ai.google.dev/api/generate-content and https://ai.google.dev/gemini-api/docs/url-context (v1beta)
 * Wire: POST {base}/v1beta/models/{model}:generateContent, `x-goog-api-key: <key>`, JSON body
 *   {system_instruction: {parts: [{text}]}, contents: [{role: "user", parts: [{text}]}], tools: [{url_context: {}}],
 *    generationConfig: {maxOutputTokens}}
 *   -> {candidates: [{content: {parts: [{text}]}, finishReason, groundingMetadata?: {groundingChunks: [{web: {uri, title}}]},
 *       urlContextMetadata?: {urlMetadata: [{retrievedUrl, urlRetrievalStatus}]}}], promptFeedback?: {blockReason}, modelVersion,
 *       usageMetadata?: {promptTokenCount, candidatesTokenCount, thoughtsTokenCount?, toolUsePromptTokenCount?, totalTokenCount}}
 *   (googleapis/js-genai src/types.ts GenerateContentResponseUsageMetadata). Billed by tokens: input is the prompt
 *   plus what url_context read (toolUsePromptTokenCount), output the answer plus its thinking (thoughtsTokenCount),
 *   "output price (including thinking tokens)" on ai.google.dev/gemini-api/docs/pricing.
 * The prompt lists the top web results as numbered sources (≤ 20 URLs for url_context, we send ≤ 10) and
 * asks for [n] citations; url_context lets the model read those pages.
 * Default model: gemini-3.8-flash, Google's newest stable Flash (released 2026-09-02, no shutdown date announced,
 * ai.google.dev/gemini-api/docs/deprecations); gemini-2.5-flash answers 404 "no longer available to new users".
 * Conformance record: docs/providers/answer/gemini.md.
 * Its price and free tier: lib/providers/prices.ts.
 */
import { z } from "zod";
import type { AnswerProvider } from "@/lib/engine/answer/types";
import { ProviderError } from "@/lib/engine/shared/errors";
import type { TokenUsage } from "@/lib/engine/shared/types";
import { buildUrl, parseResponse, requestJson } from "@/lib/http/provider-client";
import { listedPrice } from "@/lib/providers/prices";
import { requireApiKey } from "@/lib/providers/search/adapter-kit";
import { ANSWER_MAX_OUTPUT_TOKENS } from "./answer-kit";
import { citeGrounded, groundedPrompt, groundedPromptCeilingChars } from "./grounded-prompt";

const tokenCount = z.number().int().min(0).nullish();

const usageMetadataSchema = z.object({
  promptTokenCount: tokenCount,
  candidatesTokenCount: tokenCount,
  thoughtsTokenCount: tokenCount,
  toolUsePromptTokenCount: tokenCount,
});

const responseSchema = z.object({
  candidates: z
    .array(
      z.object({
        content: z.object({ parts: z.array(z.object({ text: z.string().nullish() })).nullish() }).nullish(),
        groundingMetadata: z
          .object({
            groundingChunks: z
              .array(z.object({ web: z.object({ uri: z.string(), title: z.string().nullish() }).nullish() }))
              .nullish(),
          })
          .nullish(),
      }),
    )
    .nullish(),
  promptFeedback: z.object({ blockReason: z.string().nullish() }).nullish(),
  modelVersion: z.string().nullish(),
  usageMetadata: usageMetadataSchema.nullish(),
});

/** The tokens billed: the prompt and url_context's pages in, the answer and its thinking out. */
function billedTokens(
  usage: z.output<typeof usageMetadataSchema> | null | undefined,
): TokenUsage | undefined {
  if (!usage || (usage.promptTokenCount == null && usage.candidatesTokenCount == null)) return undefined;
  return {
    input: (usage.promptTokenCount ?? 0) + (usage.toolUsePromptTokenCount ?? 0),
    output: (usage.candidatesTokenCount ?? 0) + (usage.thoughtsTokenCount ?? 0),
  };
}

export const gemini: AnswerProvider = {
  id: "gemini",
  displayName: "Gemini (grounded)",
  keyEnv: ["GEMINI_API_KEY"],
  baseUrlEnv: "GEMINI_BASE_URL",
  defaultBaseUrl: "https://generativelanguage.googleapis.com",
  docsUrl: "https://ai.google.dev/api/generate-content",
  apiVersion: "v1beta",
  price: listedPrice("gemini"),
  defaultTimeoutMs: 90_000,
  defaultModel: "gemini-3.8-flash",
  grounded: true,
  // The pages url_context reads are billed as input too, and no published figure bounds them: a call's charge
  // is kept within this reservation (isolated-call.ts), so a long page read is charged at most the ceiling.
  tokenCeiling: (query) => ({ input: groundedPromptCeilingChars(query), output: ANSWER_MAX_OUTPUT_TOKENS }),

  async answer(call) {
    const apiKey = requireApiKey(call, gemini.displayName);
    const prompt = groundedPrompt(call.query, await call.grounding());
    const path = `/v1beta/models/${encodeURIComponent(call.model)}:generateContent`;
    const response = await requestJson(buildUrl(call.baseUrl, path), {
      method: "POST",
      headers: { "x-goog-api-key": apiKey },
      json: {
        system_instruction: { parts: [{ text: prompt.system }] },
        contents: [{ role: "user", parts: [{ text: prompt.user }] }],
        tools: prompt.sources.length > 0 ? [{ url_context: {} }] : undefined,
        generationConfig: { maxOutputTokens: ANSWER_MAX_OUTPUT_TOKENS },
      },
      signal: call.signal,
    });
    const data = parseResponse(responseSchema, response.json);
    const candidate = data.candidates?.[0];
    const blockReason = data.promptFeedback?.blockReason;
    if (candidate === undefined && blockReason) {
      throw new ProviderError("blocked", `Gemini refused the prompt (${blockReason})`);
    }
    const text = (candidate?.content?.parts ?? [])
      .map((part) => part.text ?? "")
      .join("")
      .trim();
    if (text === "") throw new ProviderError("invalid_response", "Gemini returned an empty answer");
    const chunks = (candidate?.groundingMetadata?.groundingChunks ?? []).flatMap((chunk) =>
      chunk.web ? [{ url: chunk.web.uri, title: chunk.web.title }] : [],
    );
    const cited = citeGrounded(text, prompt, chunks);
    const usage = billedTokens(data.usageMetadata);
    return {
      model: data.modelVersion ?? call.model,
      answer: cited.answer,
      citations: cited.citations,
      httpStatus: response.status,
      bytes: response.bytes,
      ...(usage && { usage }),
    };
  },
};
