/**
 * A fake OpenAI-compatible model for grounded snippets: `startFakeProviders(SNIPPET_MODEL_WIRES)`, then
 * SEARCHMUX_LLM_BASE_URL = fake.baseUrlFor(SNIPPET_MODEL). POST /chat/completions answers in the Chat
 * Completions shape (https://platform.openai.com/docs/api-reference/chat/object) with, per request, the
 * reply of the first rule in `scenario.payload` (a FakeSnippetModel) whose `contains` occurs in the user
 * message, else "Grounded: " and the page text's first words — so a test sees which page was read.
 * A request with Structured Outputs (`response_format: {type: "json_schema", json_schema: {name, schema,
 * strict}}`, https://platform.openai.com/docs/guides/structured-outputs) is matched against every user
 * message (a repair turn included), and without a rule answers JSON that fills its schema from the page
 * text (structured-reply.ts). GET /models (a key check) lists `payload.models`, else DEFAULT_MODELS, in the
 * Models API's shape (https://platform.openai.com/docs/api-reference/models/list).
 */
import { bearer, type FakeWire, json, type RecordedRequest } from "./provider-server";
import { type ResponseFormat, structuredReply } from "./structured-reply";

export const SNIPPET_MODEL = "snippet-model";

interface FakeSnippetModel {
  rules?: ReadonlyArray<{ contains: string; reply: string }>;
  /** The model ids GET /models lists. */
  models?: readonly string[];
}

/** What GET /models lists without `payload.models`. */
const DEFAULT_MODELS = ["extractor", "workspace-model"] as const;

interface ChatBody {
  model?: string;
  messages?: Array<{ role: string; content: string }>;
  response_format?: ResponseFormat;
}

/** The user message of a recorded request. */
export function userMessage(request: RecordedRequest): string {
  return (request.body as ChatBody).messages?.find((m) => m.role === "user")?.content ?? "";
}

function reply(payload: FakeSnippetModel | undefined, body: ChatBody): string {
  if (body.response_format?.type === "json_schema") {
    const users = (body.messages ?? []).filter((m) => m.role === "user").map((m) => m.content);
    const rule = payload?.rules?.find((r) => users.some((user) => user.includes(r.contains)));
    return rule?.reply ?? structuredReply(body.response_format, users[0] ?? "");
  }
  return textReply(payload, userMessage({ body } as RecordedRequest));
}

function textReply(payload: FakeSnippetModel | undefined, user: string): string {
  const rule = payload?.rules?.find((r) => user.includes(r.contains));
  if (rule) return rule.reply;
  const page = user.split('"""')[1] ?? "";
  return `Grounded: ${page.trim().split(/\s+/).slice(0, 8).join(" ")}`;
}

export const SNIPPET_MODEL_WIRES: Readonly<Record<string, FakeWire>> = {
  [`${SNIPPET_MODEL}/models`]: {
    method: "GET",
    path: "/models",
    credential: bearer,
    render: (scenario) =>
      json({
        object: "list",
        data: ((scenario.payload as FakeSnippetModel | undefined)?.models ?? DEFAULT_MODELS).map((id) => ({
          id,
          object: "model",
          created: 1_700_000_000,
          owned_by: "fake",
        })),
      }),
  },
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
              content: reply(scenario.payload as FakeSnippetModel | undefined, request.body as ChatBody),
            },
          },
        ],
        usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
      }),
  },
};
