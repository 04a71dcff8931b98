/**
 * The operator's OpenAI-compatible model as an extractor, asked for structured output.
 * Spec: https://platform.openai.com/docs/api-reference/chat/create (v1 Chat Completions, Structured Outputs)
 * Wire: POST {base}/chat/completions, `Authorization: Bearer <key>` when a key is set, JSON body
 *   {model, messages, response_format: {type: "json_schema", json_schema: {name, schema, strict}},
 *   max_completion_tokens, temperature: 0} -> {choices: [{message: {content, refusal?}}],
 *   usage: {prompt_tokens, completion_tokens}}. `strict` is on only for a schema strict mode accepts (every
 *   property required, no additional ones); otherwise the server treats the schema as guidance and the
 *   reply is validated here. A refusal (`message.refusal`) is a failed attempt.
 */
import { z } from "zod";
import type { ModelExtractor } from "@/lib/engine/extract/types";
import { ProviderError } from "@/lib/engine/shared/errors";
import { buildUrl, parseResponse, requestJson } from "@/lib/http/provider-client";

/** The response_format's name: letters, digits, `_` and `-`, at most 64. */
const FORMAT_NAME = "extraction";

const completionSchema = z.object({
  choices: z
    .array(z.object({ message: z.object({ content: z.string().nullish(), refusal: z.string().nullish() }) }))
    .min(1),
  usage: z
    .object({ prompt_tokens: z.number().int().min(0), completion_tokens: z.number().int().min(0) })
    .nullish(),
});

export const operatorModelExtractor: ModelExtractor = {
  id: "llm",
  displayName: "Operator LLM",
  keyEnv: ["SEARCHMUX_LLM_API_KEY"],
  keyOptional: true,
  baseUrlEnv: "SEARCHMUX_LLM_BASE_URL",
  defaultBaseUrl: null,
  docsUrl: "https://platform.openai.com/docs/guides/structured-outputs",
  apiVersion: "v1 Chat Completions",
  // Priced by tokens when the operator names a price (SEARCHMUX_LLM_PRICE_PER_MTOK), else free.
  costPerRequestUsd: 0,
  freeTier: null,
  defaultTimeoutMs: 120_000,
  defaultModel: "",
  reads: "text",

  async extract(call) {
    const response = await requestJson(buildUrl(call.baseUrl, "/chat/completions"), {
      method: "POST",
      headers: call.apiKey ? { authorization: `Bearer ${call.apiKey}` } : {},
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
};
