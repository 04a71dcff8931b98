/**
 * Brave AI Grounding ("Answers" plan; its own subscription key, separate from the Search plan's).
 * Docs: https://api-dashboard.search.brave.com/app/documentation/ai-grounding/get-started (res/v1)
 * Wire: POST {base}/chat/completions, `x-subscription-token: <key>`, `accept: text/event-stream`,
 *   JSON body {model: "brave", stream: true, enable_citations: true, max_completion_tokens, messages: [{role: "user", content}]}
 *   -> server-sent events `data: {model, choices: [{delta: {content}}]}` … `data: [DONE]`.
 * Citations need streaming: they arrive inside the content as
 *   `<citation>{"start_index", "end_index", "number", "url", "snippet"?}</citation>`
 * right after the text they support, and `<usage>{"X-Request-Tokens-In", "X-Request-Tokens-Out", …}</usage>`
 * closes the stream (brave/brave-search-skills skills/answers/SKILL.md "Usage Tag Format"); both are tags to
 * strip, citations become [number] markers and the usage tag's token counts are what the call is charged.
 * Its price and free tier: lib/providers/prices.ts.
 */
import { z } from "zod";
import type { AnswerProvider } from "@/lib/engine/answer/types";
import { ProviderError } from "@/lib/engine/shared/errors";
import type { TokenUsage } from "@/lib/engine/shared/types";
import { buildUrl, request } from "@/lib/http/provider-client";
import { listedPrice } from "@/lib/providers/prices";
import { requireApiKey } from "@/lib/providers/search/adapter-kit";
import { ANSWER_MAX_OUTPUT_TOKENS, toProviderAnswer } from "./answer-kit";
import type { SourceRef } from "./citations";

const chunkSchema = z.object({
  model: z.string().nullish(),
  choices: z
    .array(
      z.object({
        delta: z.object({ content: z.string().nullish() }).nullish(),
        message: z.object({ content: z.string().nullish() }).nullish(),
      }),
    )
    .nullish(),
});
const citationSchema = z.object({ number: z.number().int().positive(), url: z.string() });

const usageSchema = z.object({
  "X-Request-Tokens-In": z.number().int().min(0),
  "X-Request-Tokens-Out": z.number().int().min(0),
});

const CITATION_TAG = /<citation>([\s\S]*?)<\/citation>/g;
const USAGE_TAG = /<usage>([\s\S]*?)<\/usage>/g;

/**
 * The search context Brave reads into its model for one query, in tokens: the material states no figure for
 * a single search; research mode's documented default for a query's context (research_maximum_number_of_tokens_per_query,
 * 8,192; SKILL.md "Research Parameters") is the ceiling reserved.
 */
const SEARCH_CONTEXT_TOKENS = 8_192;

export const brave: AnswerProvider = {
  id: "brave_answer",
  displayName: "Brave AI Grounding",
  keyEnv: ["BRAVE_ANSWER_API_KEY"],
  baseUrlEnv: "BRAVE_ANSWER_BASE_URL",
  defaultBaseUrl: "https://api.search.brave.com/res/v1",
  docsUrl: "https://api-dashboard.search.brave.com/app/documentation/ai-grounding/get-started",
  apiVersion: "res/v1",
  price: listedPrice("brave_answer"),
  defaultTimeoutMs: 90_000,
  // The Answers plan's capacity (api-dashboard.search.brave.com/app/plans): a key is paced to it.
  requestsPerSecond: 2,
  defaultModel: "brave",
  grounded: false,
  tokenCeiling: (query) => ({
    input: query.length + SEARCH_CONTEXT_TOKENS,
    output: ANSWER_MAX_OUTPUT_TOKENS,
  }),

  async answer(call) {
    const apiKey = requireApiKey(call, brave.displayName);
    const response = await request(buildUrl(call.baseUrl, "/chat/completions"), {
      method: "POST",
      headers: { "x-subscription-token": apiKey, accept: "text/event-stream" },
      json: {
        model: call.model,
        stream: true,
        enable_citations: true,
        enable_entities: false,
        enable_research: false,
        max_completion_tokens: ANSWER_MAX_OUTPUT_TOKENS,
        messages: [{ role: "user", content: call.query }],
      },
      signal: call.signal,
    });
    const stream = readStream(response.body);
    const { text, sources } = extractCitations(stream.content);
    return toProviderAnswer({
      displayName: brave.displayName,
      model: stream.model ?? call.model,
      text,
      sources,
      http: response,
      usage: usageOf(stream.content),
    });
  },
};

/** Concatenates the content of every `data:` event; a chunk that is not JSON makes the stream malformed. */
function readStream(body: string): { content: string; model?: string } {
  let content = "";
  let model: string | undefined;
  let events = 0;
  for (const line of body.split(/\r?\n/)) {
    if (!line.startsWith("data:")) continue;
    const data = line.slice(5).trim();
    if (data === "" || data === "[DONE]") continue;
    let json: unknown;
    try {
      json = JSON.parse(data);
    } catch {
      throw new ProviderError("invalid_response", "Brave sent a malformed stream event");
    }
    const chunk = chunkSchema.safeParse(json);
    if (!chunk.success) throw new ProviderError("invalid_response", "Brave sent an unexpected stream event");
    events += 1;
    model = chunk.data.model ?? model;
    const choice = chunk.data.choices?.[0];
    content += choice?.delta?.content ?? choice?.message?.content ?? "";
  }
  if (events === 0) throw new ProviderError("invalid_response", "Brave sent no stream events");
  return { content, model };
}

/** The token counts of the stream's usage tag; undefined without a readable one. */
function usageOf(content: string): TokenUsage | undefined {
  for (const [, body] of content.matchAll(USAGE_TAG)) {
    let json: unknown;
    try {
      json = JSON.parse(body ?? "");
    } catch {
      continue;
    }
    const usage = usageSchema.safeParse(json);
    if (usage.success)
      return { input: usage.data["X-Request-Tokens-In"], output: usage.data["X-Request-Tokens-Out"] };
  }
  return undefined;
}

/** Citation tags become [number] markers over the sources they name; other tags are dropped. */
function extractCitations(content: string): { text: string; sources: SourceRef[] } {
  const byNumber = new Map<number, SourceRef>();
  const text = content.replace(USAGE_TAG, "").replace(CITATION_TAG, (_tag, body: string) => {
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      return "";
    }
    const citation = citationSchema.safeParse(json);
    if (!citation.success) return "";
    byNumber.set(citation.data.number, { url: citation.data.url });
    return `[${citation.data.number}]`;
  });
  const highest = Math.max(0, ...byNumber.keys());
  // toProviderAnswer numbers sources from 1; gaps get an unusable entry that citeNumbered drops.
  const sources = Array.from({ length: highest }, (_unused, i) => byNumber.get(i + 1) ?? { url: "" });
  return { text, sources };
}
