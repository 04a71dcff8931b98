/** Answer provider entries that point real adapters at the fake provider server. */
import type { AnswerEntry } from "@/lib/engine/answer/types";
import { getAnswerProvider } from "@/lib/providers/answer";
import { ANSWER_PREFIX, GEMINI_MODEL } from "@/tests/fakes/answer-wires";
import type { FakeProviders } from "@/tests/fakes/provider-server";

export const TEST_API_KEY = "sk-test-0123456789";

export type AnswerProviderId = keyof typeof ANSWER_PREFIX;

export function answerEntry(
  fake: FakeProviders,
  id: AnswerProviderId,
  overrides: Partial<Omit<AnswerEntry, "provider">> = {},
): AnswerEntry {
  const provider = getAnswerProvider(id);
  if (provider === undefined) throw new Error(`no answer adapter registered for ${id}`);
  return {
    provider,
    apiKey: TEST_API_KEY,
    baseUrl: fake.baseUrlFor(ANSWER_PREFIX[id]),
    model: id === "gemini" ? GEMINI_MODEL : id === "llm" ? "local-model" : undefined,
    ...overrides,
  };
}
