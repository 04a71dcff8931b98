import type { SnippetPrompt } from "@/lib/engine/grounding/prompt";
import type { CompleteChat } from "@/lib/engine/grounding/types";
import type { ResearchModel } from "@/lib/engine/research/types";
import type { AdmitHook } from "@/lib/engine/shared/types";
import { operatorLlm } from "@/lib/providers/answer/openai-compatible";

/**
 * The research engine's model wire as a function (the caller hands the engine its `complete`): a canned
 * reply (or a thrown error) for every prompt, and the prompts it was sent.
 */
export function fakeResearchModel(
  reply: string | Error,
  admit?: AdmitHook,
): ResearchModel & { prompts: SnippetPrompt[] } {
  const prompts: SnippetPrompt[] = [];
  const complete: CompleteChat = async (_model, prompt) => {
    prompts.push(prompt);
    if (reply instanceof Error) throw reply;
    return { text: reply, httpStatus: 200 };
  };
  return {
    model: { provider: operatorLlm, baseUrl: "http://model.test/v1", model: "fake-model" },
    complete,
    admit,
    prompts,
  };
}
