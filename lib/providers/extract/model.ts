/**
 * OpenAI-compatible models as extractors, asked for structured output: one wire, two registrations.
 * - `llm`, the operator's model (SEARCHMUX_LLM_BASE_URL, _MODEL, _API_KEY), over the pooled provider client:
 *   its base URL is the operator's own configuration.
 * - `workspace_llm`, the workspace's own model: base URL, model and price stored with its key. That base URL
 *   is tenant input, so each of its requests goes through the SSRF guard (lib/http/endpoint-request.ts:
 *   https, no private address, DNS pinned, no redirect followed, a bounded answer, errors without its body).
 * Spec: https://platform.openai.com/docs/api-reference/chat/create (v1 Chat Completions, Structured Outputs)
 * Wire: POST {base}/chat/completions, `Authorization: Bearer <key>` when a key is set, JSON body
 *   {model, messages, response_format: {type: "json_schema", json_schema: {name, schema, strict}},
 *   max_completion_tokens, temperature: 0} -> {choices: [{message: {content, refusal?}}],
 *   usage: {prompt_tokens, completion_tokens}}. `strict` is on only for a schema strict mode accepts (every
 *   property required, no additional ones); otherwise the server treats the schema as guidance and the
 *   reply is validated here. A refusal (`message.refusal`) is a failed attempt.
 * Key check: GET {base}/models -> {data: [{id}]} (https://platform.openai.com/docs/api-reference/models/list),
 *   free at every provider that serves it.
 */
import { z } from "zod";
import type { ModelExtractor } from "@/lib/engine/extract/types";
import { ProviderError } from "@/lib/engine/shared/errors";
import { type EndpointGuard, endpointJson, STRICT_GUARD } from "@/lib/http/endpoint-request";
import { buildUrl, type ProviderJsonResponse, parseResponse, requestJson } from "@/lib/http/provider-client";
import { chatUsageSchema } from "@/lib/providers/answer/chat-completions";
import { listedPrice } from "@/lib/providers/prices";

/** The response_format's name: letters, digits, `_` and `-`, at most 64. */
const FORMAT_NAME = "extraction";
const TIMEOUT_MS = 120_000;

const completionSchema = z.object({
  choices: z
    .array(z.object({ message: z.object({ content: z.string().nullish(), refusal: z.string().nullish() }) }))
    .min(1),
  usage: chatUsageSchema.nullish(),
});

const modelListSchema = z.object({ data: z.array(z.object({ id: z.string() })) });

interface ModelRequest {
  method: "GET" | "POST";
  apiKey?: string;
  json?: unknown;
  signal: AbortSignal;
  guard?: EndpointGuard;
}

/** How a registration's requests travel: the pooled client, or the guarded one for a workspace's URL. */
type Transport = (url: string, request: ModelRequest) => Promise<ProviderJsonResponse>;

const bearer = (apiKey?: string): Record<string, string> =>
  apiKey ? { authorization: `Bearer ${apiKey}` } : {};

const pooled: Transport = (url, { method, apiKey, json, signal }) =>
  requestJson(url, { method, headers: bearer(apiKey), json, signal });

const guarded: Transport = (url, { method, apiKey, json, signal, guard }) =>
  endpointJson(url, {
    method,
    headers: bearer(apiKey),
    json,
    signal,
    guard: guard ?? STRICT_GUARD,
    timeoutMs: TIMEOUT_MS,
  });

type Registration = Omit<ModelExtractor, "extract" | "models" | "reads">;

/** The chat-completions extractor of a registration, its requests sent over `transport`. */
function chatModelExtractor(registration: Registration, transport: Transport): ModelExtractor {
  return {
    ...registration,
    reads: "text",

    async extract(call) {
      const response = await transport(buildUrl(call.baseUrl, "/chat/completions"), {
        method: "POST",
        apiKey: call.apiKey,
        json: {
          model: call.model,
          messages: call.messages,
          response_format: {
            type: "json_schema",
            json_schema: { name: FORMAT_NAME, schema: call.schema, strict: call.strict },
          },
          max_completion_tokens: call.maxOutputTokens,
          temperature: 0,
        },
        signal: call.signal,
        guard: call.guard,
      });
      const body = parseResponse(completionSchema, response.json);
      const message = body.choices[0]?.message;
      if (message?.refusal)
        throw new ProviderError("invalid_response", `the model refused: ${message.refusal}`);
      const content = message?.content?.trim() ?? "";
      if (content === "") throw new ProviderError("invalid_response", "the model returned an empty answer");
      return {
        json: content,
        ...(body.usage && { usage: body.usage }),
        httpStatus: response.status,
        bytes: response.bytes,
      };
    },

    async models(call) {
      const response = await transport(buildUrl(call.baseUrl, "/models"), {
        method: "GET",
        apiKey: call.apiKey,
        signal: call.signal,
        guard: call.guard,
      });
      return {
        ids: parseResponse(modelListSchema, response.json).data.map((model) => model.id),
        httpStatus: response.status,
        bytes: response.bytes,
      };
    },
  };
}

const shared = {
  docsUrl: "https://platform.openai.com/docs/guides/structured-outputs",
  apiVersion: "v1 Chat Completions",
  defaultTimeoutMs: TIMEOUT_MS,
} as const;

export const operatorModelExtractor = chatModelExtractor(
  {
    ...shared,
    id: "llm",
    displayName: "Operator LLM",
    keyEnv: ["SEARCHMUX_LLM_API_KEY"],
    keyOptional: true,
    baseUrlEnv: "SEARCHMUX_LLM_BASE_URL",
    defaultBaseUrl: null,
    // Priced by tokens when the operator names a price (SEARCHMUX_LLM_PRICE_PER_MTOK), else free.
    price: listedPrice("llm"),
    defaultModel: "",
  },
  pooled,
);

export const workspaceModelExtractor = chatModelExtractor(
  {
    ...shared,
    // What a workspace stores its model under (PUT /api/v1/keys) and budgets it by.
    id: "workspace_llm",
    displayName: "Your model (OpenAI-compatible)",
    keyEnv: [],
    configuredByWorkspace: true,
    baseUrlEnv: "",
    defaultBaseUrl: null,
    // Priced by tokens at the price the workspace stored with its key.
    price: listedPrice("workspace_llm"),
  },
  guarded,
);
