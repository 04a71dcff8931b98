/**
 * Answer adapters against the fake provider server: what each sends (auth, parameters) and how its
 * own citation format comes out normalised.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { AnswerCall, GroundingSource } from "@/lib/engine/answer/types";
import { ProviderError } from "@/lib/engine/shared/errors";
import { openAiCompatibleProvider } from "@/lib/providers/answer/openai-compatible";
import { ANSWER_PREFIX, ANSWER_WIRES, DEFAULT_ANSWER, GEMINI_MODEL } from "@/tests/fakes/answer-wires";
import { type FakeProviders, startFakeProviders } from "@/tests/fakes/provider-server";
import { type AnswerProviderId, answerEntry, TEST_API_KEY } from "./fake-entries";

let fake: FakeProviders;

beforeAll(async () => {
  fake = await startFakeProviders(ANSWER_WIRES);
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => {
  fake.resetScenarios();
  fake.clearRequests();
});

const TOKIO = [
  { title: "Tokio", url: "https://tokio.rs/" },
  { title: "Making the Tokio scheduler 10x faster", url: "https://tokio.rs/blog/2019-10-scheduler" },
];

const GROUNDING: GroundingSource[] = [
  { title: "Async Book", url: "https://rust-lang.github.io/async-book/", snippet: "Futures and executors." },
  { title: "Tokio", url: "https://tokio.rs/", snippet: "An asynchronous runtime." },
];

function callFor(id: AnswerProviderId, grounding: GroundingSource[] = []): AnswerCall {
  const entry = answerEntry(fake, id);
  return {
    query: "which async runtime does rust use",
    apiKey: entry.apiKey,
    baseUrl: entry.baseUrl,
    model: entry.model ?? entry.provider.defaultModel,
    signal: AbortSignal.timeout(5_000),
    grounding: () => Promise.resolve(grounding),
  };
}

function ask(id: AnswerProviderId, grounding?: GroundingSource[]) {
  return answerEntry(fake, id).provider.answer(callFor(id, grounding));
}

function onlyRequest(id: AnswerProviderId) {
  const requests = fake.requests(ANSWER_PREFIX[id]);
  expect(requests).toHaveLength(1);
  const [request] = requests;
  if (request === undefined) throw new Error("no request recorded");
  return request;
}

describe("numbered-source providers", () => {
  it("perplexity: Bearer key, sonar chat completion, [n] markers over search_results", async () => {
    fake.setScenario(ANSWER_PREFIX.perplexity, {
      payload: {
        answer: "Tokio schedules by work stealing [2]. It is popular [1][2].",
        sources: TOKIO,
        model: "sonar",
      },
    });
    const answer = await ask("perplexity");
    const request = onlyRequest("perplexity");
    expect(request.headers.authorization).toBe(`Bearer ${TEST_API_KEY}`);
    expect(request.body).toMatchObject({
      model: "sonar",
      messages: [{ role: "system" }, { role: "user", content: "which async runtime does rust use" }],
    });
    expect(answer.model).toBe("sonar");
    expect(answer.answer).toBe("Tokio schedules by work stealing [1]. It is popular [2][1].");
    expect(answer.citations).toEqual([
      { title: "Making the Tokio scheduler 10x faster", url: "https://tokio.rs/blog/2019-10-scheduler" },
      { title: "Tokio", url: "https://tokio.rs/" },
    ]);
    expect(answer.httpStatus).toBe(200);
  });

  it("perplexity: message content as a list of text chunks reads as one answer", async () => {
    fake.setScenario(ANSWER_PREFIX.perplexity, {
      payload: {
        answer: "Tokio schedules tasks by work stealing [2].",
        sources: TOKIO,
        contentAsChunks: true,
      },
    });
    const answer = await ask("perplexity");
    expect(answer.answer).toBe("Tokio schedules tasks by work stealing [1].");
    expect(answer.citations).toEqual([TOKIO[1]]);
  });

  it("kagi: Bot key, FastGPT query, its documented [n] markers over references", async () => {
    fake.setScenario(ANSWER_PREFIX.kagi, { payload: { answer: "Work stealing [2].", sources: TOKIO } });
    const answer = await ask("kagi");
    const request = onlyRequest("kagi");
    expect(request.headers.authorization).toBe(`Bot ${TEST_API_KEY}`);
    expect(request.body).toEqual({ query: "which async runtime does rust use", cache: true });
    expect(answer).toMatchObject({ model: "fastgpt", answer: "Work stealing [1].", citations: [TOKIO[1]] });
  });

  it("kagi: the 【n】 markers live answers use read as [n] too", async () => {
    fake.setScenario(ANSWER_PREFIX.kagi, { payload: { answer: "Work stealing 【2】.", sources: TOKIO } });
    expect(await ask("kagi")).toMatchObject({ answer: "Work stealing [1].", citations: [TOKIO[1]] });
  });

  it("exa: x-api-key, /answer, the citation list as given", async () => {
    fake.setScenario(ANSWER_PREFIX.exa, { payload: { answer: "Tokio, mostly.", sources: TOKIO } });
    const answer = await ask("exa");
    const request = onlyRequest("exa");
    expect(request.headers["x-api-key"]).toBe(TEST_API_KEY);
    expect(request.body).toEqual({ query: "which async runtime does rust use", text: false });
    expect(answer).toMatchObject({ answer: "Tokio, mostly.", citations: TOKIO });
  });

  it("tavily: Bearer key, include_answer advanced, the results as citations", async () => {
    fake.setScenario(ANSWER_PREFIX.tavily, { payload: { answer: "Tokio.", sources: TOKIO } });
    const answer = await ask("tavily");
    const request = onlyRequest("tavily");
    expect(request.headers.authorization).toBe(`Bearer ${TEST_API_KEY}`);
    expect(request.body).toMatchObject({
      query: "which async runtime does rust use",
      include_answer: "advanced",
      search_depth: "advanced",
    });
    expect(answer.citations).toEqual(TOKIO);
  });

  it("tavily without an answer is a malformed response", async () => {
    fake.setScenario(ANSWER_PREFIX.tavily, { payload: { answer: "", sources: TOKIO } });
    await expect(ask("tavily")).rejects.toMatchObject({ reason: "invalid_response" });
  });
});

describe("brave_answer", () => {
  it("streams with citations enabled and turns <citation> tags into renumbered markers", async () => {
    fake.setScenario(ANSWER_PREFIX.brave_answer, {
      payload: { answer: "Work stealing [2]. Widely used [1].", sources: TOKIO, model: "brave" },
    });
    const answer = await ask("brave_answer");
    const request = onlyRequest("brave_answer");
    expect(request.headers["x-subscription-token"]).toBe(TEST_API_KEY);
    expect(request.headers.accept).toBe("text/event-stream");
    expect(request.body).toMatchObject({ model: "brave", stream: true, enable_citations: true });
    expect(answer.answer).toBe("Work stealing [1]. Widely used [2].");
    expect(answer.citations).toEqual([
      { title: "tokio.rs", url: "https://tokio.rs/blog/2019-10-scheduler" },
      { title: "tokio.rs", url: "https://tokio.rs/" },
    ]);
  });

  it("declares the Answers plan's 2 requests a second, so its keys are paced to it", () => {
    expect(answerEntry(fake, "brave_answer").provider.requestsPerSecond).toBe(2);
  });

  it("reports a stream without events as a malformed response", async () => {
    fake.setScenario(ANSWER_PREFIX.brave_answer, { fault: "garbage" });
    const error = await ask("brave_answer").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ reason: "invalid_response" });
  });
});

describe("grounded providers", () => {
  it("gemini: x-goog-api-key, numbered grounding sources and url_context, [n] mapped back", async () => {
    fake.setScenario(ANSWER_PREFIX.gemini, {
      payload: { answer: "Use Tokio [2]; read the book [1].", sources: [] },
    });
    const answer = await ask("gemini", GROUNDING);
    const request = onlyRequest("gemini");
    expect(request.path).toBe(`/v1beta/models/${GEMINI_MODEL}:generateContent`);
    expect(request.headers["x-goog-api-key"]).toBe(TEST_API_KEY);
    expect(request.body).toMatchObject({ tools: [{ url_context: {} }] });
    const prompt = JSON.stringify(request.body);
    expect(prompt).toContain("[1] Async Book\\nhttps://rust-lang.github.io/async-book/");
    expect(prompt).toContain("Question: which async runtime does rust use");
    expect(answer).toMatchObject({
      model: GEMINI_MODEL,
      answer: "Use Tokio [1]; read the book [2].",
      citations: [
        { title: "Tokio", url: "https://tokio.rs/" },
        { title: "Async Book", url: "https://rust-lang.github.io/async-book/" },
      ],
    });
  });

  it("gemini without a configured model asks Google's current stable Flash, not the closed gemini-2.5-flash", async () => {
    fake.setScenario(ANSWER_PREFIX.gemini, { payload: { answer: "Use Tokio [2].", sources: [] } });
    const entry = answerEntry(fake, "gemini", { model: undefined });
    const answer = await entry.provider.answer({
      ...callFor("gemini", GROUNDING),
      model: entry.provider.defaultModel,
    });
    expect(onlyRequest("gemini").path).toBe("/v1beta/models/gemini-3.8-flash:generateContent");
    expect(answer.answer).toBe("Use Tokio [1].");
  });

  it("llm: Bearer key when set, the configured model, grounded markers plus Markdown links", async () => {
    fake.setScenario(ANSWER_PREFIX.llm, {
      payload: {
        answer: "Tokio [2], see [its guide](https://tokio.rs/tokio/tutorial).",
        model: "local-model",
      },
    });
    const answer = await ask("llm", GROUNDING);
    const request = onlyRequest("llm");
    expect(request.headers.authorization).toBe(`Bearer ${TEST_API_KEY}`);
    expect(request.body).toMatchObject({ model: "local-model" });
    expect(answer.citations).toEqual([
      { title: "Tokio", url: "https://tokio.rs/" },
      { title: "its guide", url: "https://tokio.rs/tokio/tutorial" },
    ]);
  });

  it("a tenant's keyless OpenAI-compatible endpoint sends no Authorization and answers ungrounded", async () => {
    const local = openAiCompatibleProvider({ id: "local-qwen", displayName: "Local Qwen" });
    fake.setScenario(ANSWER_PREFIX.llm, { payload: DEFAULT_ANSWER });
    const answer = await local.answer({
      ...callFor("llm"),
      apiKey: undefined,
      model: "qwen3",
    });
    const request = onlyRequest("llm");
    expect(request.headers.authorization).toBeUndefined();
    expect(request.body).toMatchObject({ model: "qwen3" });
    expect(JSON.stringify(request.body)).not.toContain("Sources:");
    // Markers with no sources behind them are dropped rather than left dangling.
    expect(answer).toMatchObject({
      answer: "Tokio is the most used async runtime. It schedules tasks by work stealing.",
      citations: [],
    });
  });

  it("an OpenAI-compatible provider without a model is not configured", async () => {
    const unconfigured = openAiCompatibleProvider({ id: "nomodel", displayName: "No model" });
    await expect(unconfigured.answer({ ...callFor("llm"), model: "" })).rejects.toMatchObject({
      reason: "not_configured",
    });
  });
});
