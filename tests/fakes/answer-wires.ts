/**
 * Fake answer APIs for startFakeProviders(ANSWER_WIRES). Each wire renders `scenario.payload` (a
 * FakeAnswer; DEFAULT_ANSWER when absent) in its provider's documented shape (see the adapters' headers):
 * the answer text's [n] markers point at `sources[n - 1]`, and each wire re-expresses them the way its
 * provider does (Brave: <citation> tags inside a server-sent event stream). Prefixes differ from the
 * search wires' so both can run in one server: fake.baseUrlFor(ANSWER_PREFIX.perplexity). Kagi's FastGPT is
 * also a variant of its search wire (`kagi/fastgpt`), as Kagi serves both under one base URL: a server whose
 * KAGI_BASE_URL points at the search wire (the e2e server) answers with the `kagi` scenario's payload.
 */
import {
  bearer,
  type FakeResponse,
  type FakeScenario,
  type FakeWire,
  header,
  json,
  type RecordedRequest,
} from "./provider-server";

export interface FakeAnswer {
  answer: string;
  sources?: ReadonlyArray<{ title: string; url: string }>;
  model?: string;
  /** Perplexity: the message content as a list of text chunks, the other form its API reference allows. */
  contentAsChunks?: boolean;
  /**
   * The tokens the answer reports (Perplexity, OpenAI-compatible: `usage`; Brave: the `<usage>` tag; Gemini:
   * `usageMetadata`, the output split as answer and thinking); null answers without any.
   */
  usage?: FakeUsage | null;
}

export interface FakeUsage {
  input: number;
  output: number;
  /** Gemini: of `output`, the thinking tokens (thoughtsTokenCount). */
  thoughts?: number;
  /** Gemini: tokens of the pages url_context read (toolUsePromptTokenCount), on top of `input`. */
  toolUse?: number;
}

export const DEFAULT_ANSWER: FakeAnswer = {
  answer: "Tokio is the most used async runtime [1]. It schedules tasks by work stealing [2].",
  sources: [
    { title: "Tokio", url: "https://tokio.rs/" },
    { title: "Making the Tokio scheduler 10x faster", url: "https://tokio.rs/blog/2019-10-scheduler" },
  ],
};

export const ANSWER_PREFIX = {
  perplexity: "perplexity-answer",
  exa: "exa-answer",
  tavily: "tavily-answer",
  kagi: "kagi-answer",
  brave_answer: "brave-answer",
  gemini: "gemini",
  llm: "llm",
} as const;

/** The adapter's default model: the fake serves only its path, as a retired model's is a 404 at Google. */
export const GEMINI_MODEL = "gemini-3.8-flash";

function payloadOf(scenario: FakeScenario): Required<FakeAnswer> {
  const payload = (scenario.payload as FakeAnswer | undefined) ?? DEFAULT_ANSWER;
  return {
    model: "fake-model",
    sources: [],
    contentAsChunks: false,
    usage: { input: 10, output: 20 },
    ...payload,
  };
}

type ChatContent = string | ReadonlyArray<{ type: "text"; text: string }>;

function chatCompletion(
  model: string,
  content: ChatContent,
  usage: FakeUsage | null,
  extra: Record<string, unknown> = {},
): FakeResponse {
  return json({
    id: "chatcmpl-fake",
    object: "chat.completion",
    created: 1_700_000_000,
    model,
    choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content } }],
    ...(usage && {
      usage: {
        prompt_tokens: usage.input,
        completion_tokens: usage.output,
        total_tokens: usage.input + usage.output,
      },
    }),
    ...extra,
  });
}

/** Perplexity's usage (SDK src/generated/api.ts UsageInfoOutput, CostOutput): Sonar's $1 / $1 per million. */
function perplexityUsage(usage: FakeUsage) {
  const input = usage.input / 1e6;
  const output = usage.output / 1e6;
  return {
    prompt_tokens: usage.input,
    completion_tokens: usage.output,
    total_tokens: usage.input + usage.output,
    search_context_size: "low",
    cost: {
      input_tokens_cost: input,
      output_tokens_cost: output,
      request_cost: 0.005,
      total_cost: input + output + 0.005,
    },
  };
}

/** Brave's <usage> tag as brave/brave-search-skills skills/answers/SKILL.md "Usage Tag Format" shows it. */
function braveUsageTag(usage: FakeUsage | null): string[] {
  if (usage === null) return [];
  const costs = { requests: 0.004, tokensIn: (usage.input * 5) / 1e6, tokensOut: (usage.output * 5) / 1e6 };
  return [
    `<usage>${JSON.stringify({
      "X-Request-Requests": 1,
      "X-Request-Queries": 1,
      "X-Request-Tokens-In": usage.input,
      "X-Request-Tokens-Out": usage.output,
      "X-Request-Requests-Cost": costs.requests,
      "X-Request-Queries-Cost": 0,
      "X-Request-Tokens-In-Cost": costs.tokensIn,
      "X-Request-Tokens-Out-Cost": costs.tokensOut,
      "X-Request-Total-Cost": costs.requests + costs.tokensIn + costs.tokensOut,
    })}</usage>`,
  ];
}

/** Gemini's usageMetadata (googleapis/js-genai src/types.ts GenerateContentResponseUsageMetadata). */
function geminiUsage(usage: FakeUsage | null) {
  if (usage === null) return {};
  const thoughts = usage.thoughts ?? 0;
  const toolUse = usage.toolUse ?? 0;
  return {
    usageMetadata: {
      promptTokenCount: usage.input,
      candidatesTokenCount: usage.output - thoughts,
      ...(thoughts > 0 && { thoughtsTokenCount: thoughts }),
      ...(toolUse > 0 && { toolUsePromptTokenCount: toolUse }),
      totalTokenCount: usage.input + toolUse + usage.output,
    },
  };
}

/** Brave's stream: citation tags in place of [n] markers, content cut into small deltas, then [DONE]. */
function braveStream(payload: Required<FakeAnswer>): FakeResponse {
  const content = payload.answer.replace(/\[(\d+)\]/g, (marker, n: string, offset: number) => {
    const source = payload.sources[Number(n) - 1];
    if (source === undefined) return marker;
    const citation = { start_index: 0, end_index: offset, number: Number(n), url: source.url, snippet: "…" };
    return `<citation>${JSON.stringify(citation)}</citation>`;
  });
  const deltas = content.match(/[\s\S]{1,17}/g) ?? [];
  const events = [...deltas, ...braveUsageTag(payload.usage)].map(
    (delta) =>
      `data: ${JSON.stringify({
        id: "fake",
        object: "chat.completion.chunk",
        created: 1_700_000_000,
        model: payload.model,
        choices: [{ index: 0, delta: { role: "assistant", content: delta }, finish_reason: null }],
      })}\n\n`,
  );
  return { contentType: "text/event-stream", body: `${events.join("")}data: [DONE]\n\n` };
}

/**
 * Kagi FastGPT as its documented example answers (kagisearch/kagi-docs docs/kagi/api/fastgpt.md): `[n]` markers
 * over `references`, verbatim; a payload written with 【n】 (what live answers have been seen to use) stays so.
 */
const kagiFastGpt: FakeWire = {
  method: "POST",
  path: "/fastgpt",
  credential: (request: RecordedRequest) => request.headers.authorization?.replace(/^Bot\s+/i, ""),
  render: (scenario) => {
    const payload = payloadOf(scenario);
    return json({
      meta: { id: "fake", node: "local", ms: 1200 },
      data: {
        output: payload.answer,
        tokens: 757,
        references: payload.sources.map((s) => ({ title: s.title, snippet: "…", url: s.url })),
      },
    });
  },
};

export const ANSWER_WIRES: Readonly<Record<string, FakeWire>> = {
  [ANSWER_PREFIX.perplexity]: {
    method: "POST",
    path: "/chat/completions",
    credential: bearer,
    render: (scenario) => {
      const payload = payloadOf(scenario);
      // perplexityai/perplexity-node src/generated/api.ts ChatMessageOutput: content is a string or text chunks.
      const content = payload.contentAsChunks
        ? (payload.answer.match(/[\s\S]{1,24}/g) ?? []).map((text) => ({ type: "text" as const, text }))
        : payload.answer;
      return chatCompletion(payload.model, content, payload.usage, {
        citations: payload.sources.map((s) => s.url),
        search_results: payload.sources.map((s) => ({ title: s.title, url: s.url, date: null })),
        ...(payload.usage && { usage: perplexityUsage(payload.usage) }),
      });
    },
  },
  [ANSWER_PREFIX.exa]: {
    method: "POST",
    path: "/answer",
    credential: header("x-api-key"),
    render: (scenario) => {
      const payload = payloadOf(scenario);
      return json({
        requestId: "fake",
        answer: payload.answer,
        citations: payload.sources.map((s) => ({
          id: s.url,
          url: s.url,
          title: s.title,
          author: null,
          publishedDate: null,
        })),
        costDollars: { total: 0.005 },
      });
    },
  },
  [ANSWER_PREFIX.tavily]: {
    method: "POST",
    path: "/search",
    credential: bearer,
    render: (scenario) => {
      const payload = payloadOf(scenario);
      return json({
        query: "fake",
        answer: payload.answer,
        images: [],
        results: payload.sources.map((s, i) => ({
          title: s.title,
          url: s.url,
          content: `About ${s.title}`,
          score: 1 - i / 10,
          raw_content: null,
        })),
        response_time: 1.2,
      });
    },
  },
  [ANSWER_PREFIX.kagi]: kagiFastGpt,
  "kagi/fastgpt": kagiFastGpt,
  [ANSWER_PREFIX.brave_answer]: {
    method: "POST",
    path: "/chat/completions",
    credential: header("x-subscription-token"),
    render: (scenario) => braveStream(payloadOf(scenario)),
  },
  [ANSWER_PREFIX.gemini]: {
    method: "POST",
    path: `/v1beta/models/${GEMINI_MODEL}:generateContent`,
    credential: header("x-goog-api-key"),
    render: (scenario) => {
      const payload = payloadOf(scenario);
      return json({
        candidates: [
          {
            content: { role: "model", parts: [{ text: payload.answer }] },
            finishReason: "STOP",
            urlContextMetadata: {
              urlMetadata: payload.sources.map((s) => ({
                retrievedUrl: s.url,
                urlRetrievalStatus: "URL_RETRIEVAL_STATUS_SUCCESS",
              })),
            },
          },
        ],
        ...geminiUsage(payload.usage),
        modelVersion: GEMINI_MODEL,
      });
    },
  },
  [ANSWER_PREFIX.llm]: {
    method: "POST",
    path: "/chat/completions",
    credential: bearer,
    render: (scenario) => {
      const payload = payloadOf(scenario);
      return chatCompletion(payload.model, payload.answer, payload.usage);
    },
  },
};
