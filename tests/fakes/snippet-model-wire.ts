/**
 * A fake OpenAI-compatible model for grounded snippets: `startFakeProviders(SNIPPET_MODEL_WIRES)`, then
 * SEARCHMUX_LLM_BASE_URL = fake.baseUrlFor(SNIPPET_MODEL). POST /chat/completions answers in the Chat
 * Completions shape (https://platform.openai.com/docs/api-reference/chat/object) with, per request, the
 * reply of the first rule in `scenario.payload` (a FakeSnippetModel) whose `contains` occurs in the user
 * message, else "Grounded: " and the page text's first words — so a test sees which page was read.
 */
import { bearer, type FakeWire, json, type RecordedRequest } from "./provider-server";

export const SNIPPET_MODEL = "snippet-model";

interface FakeSnippetModel {
  rules?: ReadonlyArray<{ contains: string; reply: string }>;
}

interface ChatBody {
  model?: string;
  messages?: Array<{ role: string; content: string }>;
}

/** The user message of a recorded request. */
export function userMessage(request: RecordedRequest): string {
  return (request.body as ChatBody).messages?.find((m) => m.role === "user")?.content ?? "";
}

function reply(payload: FakeSnippetModel | undefined, user: string): string {
  const rule = payload?.rules?.find((r) => user.includes(r.contains));
  if (rule) return rule.reply;
  const page = user.split('"""')[1] ?? "";
  return `Grounded: ${page.trim().split(/\s+/).slice(0, 8).join(" ")}`;
}

export const SNIPPET_MODEL_WIRES: Readonly<Record<string, FakeWire>> = {
  [SNIPPET_MODEL]: {
    method: "POST",
    path: "/chat/completions",
    credential: bearer,
    render: (scenario, request) =>
      json({
        id: "chatcmpl-fake",
        object: "chat.completion",
        created: 1_700_000_000,
        model: (request.body as ChatBody).model ?? "fake",
        choices: [
          {
            index: 0,
            finish_reason: "stop",
            message: {
              role: "assistant",
              content: reply(scenario.payload as FakeSnippetModel | undefined, userMessage(request)),
            },
          },
        ],
        usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
      }),
  },
};
