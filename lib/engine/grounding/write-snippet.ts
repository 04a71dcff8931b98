/**
 * One model call through the shared isolated attempt (admission, timeout inside the page's deadline,
 * failure classification, span of kind "llm"). The wire is the caller's `complete` (the services hand
 * in OpenAI Chat Completions, as for the answer provider `llm`). A NO_CONTENT reply makes the span "empty".
 */

import { callIsolated } from "@/lib/engine/shared/isolated-call";
import type { AdmitHook, ProviderFailure } from "@/lib/engine/shared/types";
import { saysNoContent } from "./no-content";
import { cleanSnippet, type SnippetPrompt } from "./prompt";
import type { CompleteChat, ModelEntry, ModelReply, StageSpan } from "./types";

export type SnippetOutcome =
  | { ok: true; snippet: string; span: StageSpan }
  | { ok: true; noContent: true; span: StageSpan }
  | { ok: false; failure: ProviderFailure; span: StageSpan };

export async function writeSnippet(
  { model, complete }: { model: ModelEntry; complete: CompleteChat },
  prompt: SnippetPrompt,
  context: { deadline: AbortSignal; admit?: AdmitHook; origin: number },
): Promise<SnippetOutcome> {
  const outcome = await callIsolated(
    {
      entry: model,
      invoke: (signal) => complete(model, prompt, signal),
      isResponse: (value): value is ModelReply =>
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
