/**
 * One research model call through the shared isolated attempt (admission, timeout inside the deadline,
 * failure classification, span of kind "llm"). A reply the step cannot use becomes `unusable`, so the
 * step falls back with a failure the trace shows.
 */
import type { SnippetPrompt } from "@/lib/engine/grounding/prompt";
import type { ModelReply } from "@/lib/engine/grounding/types";
import { callIsolated } from "@/lib/engine/shared/isolated-call";
import type { ProviderFailure, ProviderSpan } from "@/lib/engine/shared/types";
import type { ResearchModel } from "./types";

export type ModelSpan = ProviderSpan<"llm">;

export type ModelOutcome =
  | { ok: true; text: string; span: ModelSpan }
  | { ok: false; failure: ProviderFailure; span: ModelSpan };

export async function callModel(
  { model, complete, admit }: ResearchModel,
  prompt: SnippetPrompt,
  context: { deadline: AbortSignal; origin: number },
): Promise<ModelOutcome> {
  const outcome = await callIsolated(
    {
      entry: model,
      invoke: (signal) => complete(model, prompt, signal),
      isResponse: (value): value is ModelReply =>
        typeof value === "object" && value !== null && "text" in value && typeof value.text === "string",
      count: (reply) => (reply.text.trim() === "" ? 0 : 1),
    },
    { kind: "llm" as const, admit, ...context },
  );
  if (!outcome.ok) return { ok: false, failure: outcome.failure, span: outcome.span };
  return { ok: true, text: outcome.response.text, span: outcome.span };
}

/** A reply the model gave but the step could not use: an "empty" span and an invalid_response failure. */
export function unusable(
  outcome: { span: ModelSpan },
  message: string,
): { span: ModelSpan; failure: ProviderFailure } {
  const { span } = outcome;
  return {
    span: { ...span, outcome: "empty" },
    failure: { provider: span.provider, reason: "invalid_response", message, duration_ms: span.duration_ms },
  };
}
