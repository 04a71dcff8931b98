/**
 * The OpenAI Chat Completions wire, which Perplexity Sonar and every OpenAI-compatible server speak:
 * POST {base}/chat/completions {model, messages} -> {model, choices: [{message: {content, annotations?}}],
 * usage?: {prompt_tokens, completion_tokens, total_tokens}}. Perplexity documents the same usage fields (required
 * there; perplexityai/perplexity-node src/generated/api.ts UsageInfoOutput, checked 2026-12-01).
 * Spec: https://platform.openai.com/docs/api-reference/chat/create
 */
import { z } from "zod";
import { ProviderError } from "@/lib/engine/shared/errors";
import type { TokenUsage } from "@/lib/engine/shared/types";
import { buildUrl, type ProviderJsonResponse, requestJson } from "@/lib/http/provider-client";
import { CHAT_COMPLETIONS_ERRORS } from "@/lib/providers/error-rules";
import type { SourceRef } from "./citations";

const urlCitation = z.object({
  type: z.string(),
  url_citation: z.object({ url: z.string(), title: z.string().nullish() }).nullish(),
});

/**
 * A message's content: OpenAI sends a string; Perplexity documents a string or a list of chunks
 * (perplexityai/perplexity-node src/generated/api.ts, ChatMessageOutput), of which the text chunks are the answer.
 */
const messageContent = z
  .union([z.string(), z.array(z.object({ type: z.string(), text: z.string().nullish() }))])
  .nullish()
  .transform((content) =>
    Array.isArray(content)
      ? content.map((chunk) => (chunk.type === "text" ? (chunk.text ?? "") : "")).join("")
      : content,
  );

/** The tokens a completion was billed for: what a server priced by tokens charges (extract reads it too). */
export const chatUsageSchema = z.object({
  prompt_tokens: z.number().int().min(0),
  completion_tokens: z.number().int().min(0),
});

export const chatCompletionSchema = z.object({
  model: z.string().nullish(),
  choices: z
    .array(
      z.object({
        message: z.object({
          content: messageContent,
          /** OpenAI's web-search models attach url_citation annotations. */
          annotations: z.array(urlCitation).nullish(),
        }),
      }),
    )
    .min(1),
  usage: chatUsageSchema.nullish(),
});

export interface ChatRequest {
  baseUrl: string;
  headers: Record<string, string>;
  model: string;
  system: string;
  user: string;
  signal: AbortSignal;
  /** Provider-specific body fields (Perplexity's web_search_options, …). */
  extra?: Record<string, unknown>;
}

export function postChatCompletion(request: ChatRequest): Promise<ProviderJsonResponse> {
  return requestJson(buildUrl(request.baseUrl, "/chat/completions"), {
    method: "POST",
    headers: request.headers,
    json: {
      model: request.model,
      messages: [
        { role: "system", content: request.system },
        { role: "user", content: request.user },
      ],
      ...request.extra,
    },
    signal: request.signal,
    errorRules: CHAT_COMPLETIONS_ERRORS,
  });
}

export type ChatCompletion = z.output<typeof chatCompletionSchema>;

/** The first choice's text and url_citation annotations; an empty answer is a malformed response. */
export function firstChoice(data: ChatCompletion): { content: string; annotations: SourceRef[] } {
  const message = data.choices[0]?.message;
  const content = message?.content?.trim() ?? "";
  if (content === "") throw new ProviderError("invalid_response", "the provider returned an empty answer");
  const annotations = (message?.annotations ?? []).flatMap((annotation) =>
    annotation.url_citation ? [annotation.url_citation] : [],
  );
  return { content, annotations };
}

/** The completion's usage as tokens read and written; undefined when the server reported none. */
export const chatUsage = (data: ChatCompletion): TokenUsage | undefined =>
  data.usage ? { input: data.usage.prompt_tokens, output: data.usage.completion_tokens } : undefined;
