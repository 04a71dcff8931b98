/**
 * Registry of answer provider adapters. Adding a provider = one new file + one line here. Tenant-
 * configured OpenAI-compatible endpoints are built per call with openAiCompatibleProvider().
 */
import type { AnswerProvider } from "@/lib/engine/answer/types";
import type { ProviderId } from "@/lib/engine/shared/types";
import { brave } from "./brave";
import { exa } from "./exa";
import { gemini } from "./gemini";
import { kagi } from "./kagi";
import { operatorLlm } from "./openai-compatible";
import { perplexity } from "./perplexity";
import { tavily } from "./tavily";

export const answerProviders: readonly AnswerProvider[] = [
  perplexity,
  exa,
  tavily,
  kagi,
  brave,
  gemini,
  operatorLlm,
];

const byId = new Map(answerProviders.map((provider) => [provider.id, provider]));

export function getAnswerProvider(id: ProviderId): AnswerProvider | undefined {
  return byId.get(id);
}
