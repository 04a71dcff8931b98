/**
 * Gemini, grounded in our own web search results (the caller's web_search via call.grounding()).
 * Docs: https://ai.google.dev/api/generate-content and https://ai.google.dev/gemini-api/docs/url-context (v1beta)
 * Wire: POST {base}/v1beta/models/{model}:generateContent, `x-goog-api-key: <key>`, JSON body
 *   {system_instruction: {parts: [{text}]}, contents: [{role: "user", parts: [{text}]}], tools: [{url_context: {}}]}
 *   -> {candidates: [{content: {parts: [{text}]}, finishReason, groundingMetadata?: {groundingChunks: [{web: {uri, title}}]},
 *       urlContextMetadata?: {urlMetadata: [{retrievedUrl, urlRetrievalStatus}]}}], promptFeedback?: {blockReason}, modelVersion}.
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
import { buildUrl, parseResponse, requestJson } from "@/lib/http/provider-client";
import { listedPrice } from "@/lib/providers/prices";
import { requireApiKey } from "@/lib/providers/search/adapter-kit";
import { citeGrounded, groundedPrompt } from "./grounded-prompt";

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
});

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
    return {
      model: data.modelVersion ?? call.model,
      answer: cited.answer,
      citations: cited.citations,
      httpStatus: response.status,
      bytes: response.bytes,
    };
  },
};
