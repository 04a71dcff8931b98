/**
 * One model call through the shared isolated attempt (admission, timeout inside the page's deadline,
 * failure classification, span of kind "llm"). The wire is OpenAI Chat Completions, as for the answer
 * provider `llm` (lib/providers/answer/chat-completions.ts). A NO_CONTENT reply makes the span "empty".
 */

import { callIsolated } from "@/lib/engine/shared/call-provider";
import type { AdmitHook, ProviderFailure, TransportFacts } from "@/lib/engine/shared/types";
import { parseResponse } from "@/lib/http/provider-client";
import {
  chatCompletionSchema,
  firstChoice,
  postChatCompletion,
} from "@/lib/providers/answer/chat-completions";
import { saysNoContent } from "./no-content";
import { cleanSnippet, type SnippetPrompt } from "./prompt";
import type { ModelEntry, StageSpan } from "./types";

interface Reply extends TransportFacts {
  text: string;
}

export type SnippetOutcome =
  | { ok: true; snippet: string; span: StageSpan }
  | { ok: true; noContent: true; span: StageSpan }
  | { ok: false; failure: ProviderFailure; span: StageSpan };

export async function writeSnippet(
  model: ModelEntry,
  prompt: SnippetPrompt,
  context: { deadline: AbortSignal; admit?: AdmitHook; origin: number },
): Promise<SnippetOutcome> {
  const outcome = await callIsolated(
    {
      entry: model,
      invoke: (signal) => complete(model, prompt, signal),
      isResponse: (value): value is Reply =>
        typeof value === "object" && value !== null && "text" in value && typeof value.text === "string",
      count: (reply) => (saysNoContent(reply.text) ? 0 : 1),
    },
    { kind: "llm" as const, ...context },
  );
  if (!outcome.ok) return { ok: false, failure: outcome.failure, span: outcome.span };
  const snippet = cleanSnippet(outcome.response.text);
  if (outcome.success.count === 0 || snippet === "") {
    return { ok: true, noContent: true, span: { ...outcome.span, outcome: "empty" } };
  }
  return { ok: true, snippet, span: outcome.span };
}

async function complete(model: ModelEntry, prompt: SnippetPrompt, signal: AbortSignal): Promise<Reply> {
  const response = await postChatCompletion({
    baseUrl: model.baseUrl,
    headers: model.apiKey ? { authorization: `Bearer ${model.apiKey}` } : {},
    model: model.model,
    system: prompt.system,
    user: prompt.user,
    signal,
  });
  const { content } = firstChoice(parseResponse(chatCompletionSchema, response.json));
  return { text: content, httpStatus: response.status, bytes: response.bytes };
}
