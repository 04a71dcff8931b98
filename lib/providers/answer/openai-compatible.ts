/**
 * Any OpenAI-compatible chat endpoint (vLLM, llama.cpp server, Ollama's /v1, LiteLLM, OpenRouter, …),
 * grounded in our own web search results like Gemini. The operator's model is the `llm` provider
 * (SEARCHMUX_LLM_BASE_URL / _API_KEY / _MODEL); tenants may configure more with openAiCompatibleProvider().
 * Spec: https://platform.openai.com/docs/api-reference/chat/create (v1 Chat Completions)
 * Wire: POST {base}/chat/completions, `Authorization: Bearer <key>` when a key is set, JSON body
 *   {model, messages: [{role: "system"}, {role: "user"}], max_completion_tokens}
 *   -> {model, choices: [{message: {content, annotations?}}], usage?: {prompt_tokens, completion_tokens}}; the usage
 *   is what a priced model (SEARCHMUX_LLM_PRICE_PER_MTOK) is charged by.
 * The base URL includes the version segment, as OpenAI clients expect (e.g. http://localhost:11434/v1).
 */
import type { AnswerProvider } from "@/lib/engine/answer/types";
import { ProviderError } from "@/lib/engine/shared/errors";
import type { ListedPrice } from "@/lib/engine/shared/types";
import { parseResponse } from "@/lib/http/provider-client";
import { listedPrice } from "@/lib/providers/prices";
import { ANSWER_MAX_OUTPUT_TOKENS } from "./answer-kit";
import { chatCompletionSchema, chatUsage, firstChoice, postChatCompletion } from "./chat-completions";
import { citeGrounded, groundedPrompt, groundedPromptCeilingChars } from "./grounded-prompt";

const PROVIDER_ID = /^[a-z0-9][a-z0-9_-]{0,39}$/;

export interface OpenAiCompatibleOptions {
  /** Lowercase provider id, e.g. "llm" or a tenant's "local-qwen". */
  id: string;
  displayName: string;
  /** Env variables of the operator's key (keys are optional: local servers often need none). */
  keyEnv?: string[];
  /** Env variable of the base URL; tenant endpoints have their base URL in the entry instead. */
  baseUrlEnv?: string;
  defaultModel?: string;
  /** Its price table entry; by default the operator model's (free a call, priced by tokens where a price is named). */
  price?: ListedPrice;
}

export function openAiCompatibleProvider(options: OpenAiCompatibleOptions): AnswerProvider {
  if (!PROVIDER_ID.test(options.id)) throw new Error(`invalid provider id: ${options.id}`);
  const provider: AnswerProvider = {
    id: options.id,
    displayName: options.displayName,
    keyEnv: options.keyEnv ?? [],
    keyOptional: true,
    baseUrlEnv: options.baseUrlEnv ?? "",
    defaultBaseUrl: null,
    docsUrl: "https://platform.openai.com/docs/api-reference/chat/create",
    apiVersion: "v1 Chat Completions",
    price: options.price ?? listedPrice("llm"),
    defaultTimeoutMs: 120_000,
    defaultModel: options.defaultModel ?? "",
    grounded: true,
    tokenCeiling: (query) => ({ input: groundedPromptCeilingChars(query), output: ANSWER_MAX_OUTPUT_TOKENS }),

    async answer(call) {
      if (call.model === "")
        throw new ProviderError("not_configured", `${provider.displayName} has no model`);
      const prompt = groundedPrompt(call.query, await call.grounding());
      // The answer's length is bounded so that its tokens, and so its charge, have a ceiling.
      const { response, data } = await complete(call, prompt, call.signal, {
        max_completion_tokens: ANSWER_MAX_OUTPUT_TOKENS,
      });
      const { content, annotations } = firstChoice(data);
      const cited = citeGrounded(content, prompt, annotations);
      const usage = chatUsage(data);
      return {
        model: data.model ?? call.model,
        answer: cited.answer,
        citations: cited.citations,
        httpStatus: response.status,
        bytes: response.bytes,
        ...(usage && { usage }),
      };
    },
  };
  return provider;
}

interface ChatModel {
  baseUrl: string;
  apiKey?: string;
  model: string;
}

/** One completion: `Authorization: Bearer <key>` when a key is set, the response parsed. */
async function complete(
  model: ChatModel,
  prompt: { system: string; user: string },
  signal: AbortSignal,
  extra?: Record<string, unknown>,
) {
  const response = await postChatCompletion({
    baseUrl: model.baseUrl,
    headers: model.apiKey ? { authorization: `Bearer ${model.apiKey}` } : {},
    model: model.model,
    system: prompt.system,
    user: prompt.user,
    ...(extra && { extra }),
    signal,
  });
  return { response, data: parseResponse(chatCompletionSchema, response.json) };
}

/** One completion's text with the transport's facts: the wire grounded snippets are written over. */
export async function completeChat(
  model: ChatModel,
  prompt: { system: string; user: string },
  signal: AbortSignal,
): Promise<{ text: string; httpStatus: number; bytes: number }> {
  const { response, data } = await complete(model, prompt, signal);
  return { text: firstChoice(data).content, httpStatus: response.status, bytes: response.bytes };
}

/** The operator's own model, offered as the answer provider `llm`. */
export const operatorLlm = openAiCompatibleProvider({
  id: "llm",
  displayName: "Operator LLM",
  keyEnv: ["SEARCHMUX_LLM_API_KEY"],
  baseUrlEnv: "SEARCHMUX_LLM_BASE_URL",
});

/** Env variable naming the operator model (read by the services layer, like keys and base URLs). */
export const OPERATOR_LLM_MODEL_ENV = "SEARCHMUX_LLM_MODEL";
