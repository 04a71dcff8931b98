/**
 * runAnswer end to end through the real adapters and HTTP client against the fake provider server.
 * Faults are injected at the HTTP boundary only.
 */
import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { answerInputSchema } from "@/lib/engine/answer/input";
import { runAnswer } from "@/lib/engine/answer/run-answer";
import type { AnswerEntry, AnswerProgress, GroundingSource } from "@/lib/engine/answer/types";
import { ANSWER_PREFIX, ANSWER_WIRES } from "@/tests/fakes/answer-wires";
import { setUpFakeProviders } from "@/tests/fakes/set-up-fake-providers";
import { generous } from "@/tests/support/generous";
import { answerEntry } from "./fake-entries";

const fake = setUpFakeProviders(ANSWER_WIRES);

const SHARED = { title: "Tokio", url: "https://tokio.rs/" };
const sources = (...urls: string[]) => urls.map((url) => ({ title: `Page ${url}`, url }));

async function timed<T>(work: Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work;
  return { value, ms: performance.now() - started };
}

describe("runAnswer — fan-out and agreement", () => {
  it("asks every provider in parallel and lists the cited pages two or more answers share", async () => {
    // Each fake answers only once all three requests are in flight at once: one at a time never completes.
    fake.setScenario(ANSWER_PREFIX.perplexity, {
      holdUntilInFlight: 3,
      latencyMs: 150,
      payload: { answer: "Tokio [1], see also [2].", sources: [SHARED, ...sources("https://a.example/1")] },
    });
    fake.setScenario(ANSWER_PREFIX.kagi, {
      holdUntilInFlight: 3,
      latencyMs: 150,
      payload: {
        answer: "Tokio [2] [1].",
        sources: [
          ...sources("https://a.example/1/?utm_source=kagi"),
          { ...SHARED, url: "http://www.tokio.rs" },
        ],
      },
    });
    fake.setScenario(ANSWER_PREFIX.exa, {
      holdUntilInFlight: 3,
      latencyMs: 150,
      payload: { answer: "Tokio.", sources: [SHARED, ...sources("https://only-exa.example/")] },
    });

    const result = await runAnswer({
      input: { query: "rust async runtime" },
      providers: [answerEntry(fake, "perplexity"), answerEntry(fake, "kagi"), answerEntry(fake, "exa")],
    });

    expect(fake.maxInFlight()).toBe(3);
    expect(fake.events().map((e) => e.kind)).toEqual([
      ...["arrived", "arrived", "arrived"],
      ...["answered", "answered", "answered"],
    ]);
    expect(result.providers_failed).toEqual([]);
    expect(result.partial).toBe(false);
    expect(result.answers.map((a) => [a.provider, a.model])).toEqual([
      ["perplexity", "fake-model"],
      ["kagi", "fastgpt"],
      ["exa", "exa"],
    ]);
    for (const answer of result.answers) expect(answer.duration_ms).toBeGreaterThanOrEqual(140);
    expect(result.agreement).toEqual({
      answers: 3,
      shared_citations: [
        { url: "https://tokio.rs/", title: "Tokio", providers: ["perplexity", "kagi", "exa"] },
        { url: "https://a.example/1", title: "Page https://a.example/1", providers: ["perplexity", "kagi"] },
      ],
    });
    expect(result.spans.map((s) => [s.provider, s.kind, s.outcome])).toEqual([
      ["perplexity", "answer", "ok"],
      ["kagi", "answer", "ok"],
      ["exa", "answer", "ok"],
    ]);
  });

  it("isolates failures: malformed JSON, an HTML page, 429 and 500 each get their own reason", async () => {
    fake.setScenario(ANSWER_PREFIX.perplexity, { fault: "garbage" });
    fake.setScenario(ANSWER_PREFIX.exa, { fault: "html" });
    fake.setScenario(ANSWER_PREFIX.tavily, { status: 429, retryAfter: "30" });
    fake.setScenario(ANSWER_PREFIX.kagi, { status: 500 });

    const result = await runAnswer({
      input: { query: "q" },
      providers: ["perplexity", "exa", "tavily", "kagi", "brave_answer"].map((id) =>
        answerEntry(fake, id as "perplexity"),
      ),
    });

    expect(result.answers.map((a) => a.provider)).toEqual(["brave_answer"]);
    expect(result.providers_failed.map((f) => [f.provider, f.reason, f.status])).toEqual([
      ["perplexity", "invalid_response", 200],
      ["exa", "invalid_response", 200],
      ["tavily", "rate_limited", 429],
      ["kagi", "http_error", 500],
    ]);
    expect(result.providers_failed.find((f) => f.provider === "tavily")?.retryAfter).toBe(30);
    expect(result.partial).toBe(true);
  });

  it("reports requested providers without an entry, and unconfigured keys, as not_configured", async () => {
    const result = await runAnswer({
      input: { query: "q", providers: ["exa", "nope"] },
      providers: [answerEntry(fake, "exa", { apiKey: undefined }), answerEntry(fake, "kagi")],
    });
    expect(result.answers).toEqual([]);
    expect(result.providers_failed.map((f) => [f.provider, f.reason])).toEqual([
      ["nope", "not_configured"],
      ["exa", "not_configured"],
    ]);
    expect(fake.requests(ANSWER_PREFIX.kagi)).toHaveLength(0);
  });
});

describe("runAnswer — deadline", () => {
  it("returns by timeout_ms when a provider never answers, reporting it as a timeout", async () => {
    fake.setScenario(ANSWER_PREFIX.perplexity, { fault: "hang" });
    const { value: result, ms } = await timed(
      runAnswer({
        input: { query: "q", timeout_ms: 400 },
        providers: [answerEntry(fake, "perplexity"), answerEntry(fake, "exa")],
      }),
    );
    // Only the deadline ends a hang (the default one, 120 s, is past the test's timeout), and it cancels the
    // hung request: the fake sees the client give it up.
    await fake.seen(ANSWER_PREFIX.perplexity, "aborted");
    expect(ms).toBeLessThan(generous(400));
    expect(result.answers.map((a) => a.provider)).toEqual(["exa"]);
    expect(result.providers_failed).toEqual([
      expect.objectContaining({ provider: "perplexity", reason: "timeout" }),
    ]);
    expect(result.spans.find((s) => s.provider === "perplexity")?.outcome).toBe("timeout");
  });

  it("ignores a result that arrives after the deadline, even from an adapter that ignores its signal", async () => {
    const exa = answerEntry(fake, "exa");
    let lateDelivered = false;
    const stubborn: AnswerEntry = {
      ...exa,
      provider: {
        ...exa.provider,
        id: "stubborn",
        answer: (call) =>
          new Promise((resolve) =>
            setTimeout(() => {
              lateDelivered = true;
              resolve({ model: "late", answer: "Too late [1].", citations: [SHARED] });
            }, 600),
          ).then(() => exa.provider.answer({ ...call, signal: AbortSignal.timeout(5_000) })),
      },
    };
    const result = await runAnswer({ input: { query: "q", timeout_ms: 300 }, providers: [stubborn, exa] });
    // Returned before the stubborn adapter delivered (its answer comes 300 ms after the deadline).
    expect(lateDelivered).toBe(false);
    expect(result.answers.map((a) => a.provider)).toEqual(["exa"]);
    expect(result.providers_failed.map((f) => [f.provider, f.reason])).toEqual([["stubborn", "timeout"]]);

    const snapshot = structuredClone(result);
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(lateDelivered).toBe(true);
    expect(result).toEqual(snapshot);
  });

  it("the caller's signal cancels every provider and leaves no listener behind", async () => {
    fake.setScenario(ANSWER_PREFIX.kagi, { fault: "hang" });
    const controller = new AbortController();
    void fake.seen(ANSWER_PREFIX.kagi, "arrived").then(() => controller.abort(new Error("client went away")));
    // Cancelled once the request is in flight; with no deadline but the default 120 s (past the test's
    // timeout), only the caller's signal can end the hang.
    const result = await runAnswer({
      input: { query: "q" },
      providers: [answerEntry(fake, "kagi")],
      signal: controller.signal,
    });
    await fake.seen(ANSWER_PREFIX.kagi, "aborted");
    expect(result.providers_failed).toEqual([
      expect.objectContaining({ provider: "kagi", reason: "timeout", message: "answer cancelled" }),
    ]);
    expect(getEventListeners(controller.signal, "abort")).toHaveLength(0);
  });

  it("clamps timeout_ms to 120 s and defaults to it", () => {
    expect(answerInputSchema.parse({ query: "q" }).timeout_ms).toBe(120_000);
    expect(answerInputSchema.parse({ query: "q", timeout_ms: 999_999 }).timeout_ms).toBe(120_000);
    expect(answerInputSchema.safeParse({ query: "" }).success).toBe(false);
    expect(answerInputSchema.safeParse({ query: "x".repeat(2_001) }).success).toBe(false);
  });
});

describe("runAnswer — grounding and progress", () => {
  it("runs the grounding search once for all grounded providers and reports progress per provider", async () => {
    const grounding: GroundingSource[] = [
      { title: "Tokio", url: "https://tokio.rs/", snippet: "Runtime." },
      { title: "Book", url: "https://rust-lang.github.io/async-book/", snippet: "Async." },
    ];
    const searches: string[] = [];
    fake.setScenario(ANSWER_PREFIX.gemini, { payload: { answer: "Tokio [1]." } });
    fake.setScenario(ANSWER_PREFIX.llm, { payload: { answer: "Tokio [1], book [2]." } });
    fake.setScenario(ANSWER_PREFIX.tavily, { status: 503 });
    const events: AnswerProgress[] = [];

    const result = await runAnswer({
      input: { query: "rust async" },
      providers: [answerEntry(fake, "gemini"), answerEntry(fake, "llm"), answerEntry(fake, "tavily")],
      groundingSearch: async (query) => {
        searches.push(query);
        return grounding;
      },
      onProgress: (event) => {
        events.push(event);
        throw new Error("listener failures are ignored");
      },
    });

    expect(searches).toEqual(["rust async"]);
    expect(result.answers.map((a) => a.provider)).toEqual(["gemini", "llm"]);
    expect(result.agreement.shared_citations).toEqual([
      { url: "https://tokio.rs/", title: "Tokio", providers: ["gemini", "llm"] },
    ]);
    expect(events.map((e) => [e.provider, e.outcome, e.total])).toEqual(
      expect.arrayContaining([
        ["gemini", "answered", 3],
        ["llm", "answered", 3],
        ["tavily", "failed", 3],
      ]),
    );
    expect(events.map((e) => e.completed)).toEqual([1, 2, 3]);
    expect(events.find((e) => e.provider === "tavily")?.reason).toBe("http_error");
  });

  it("a failing grounding search fails only the grounded providers", async () => {
    const result = await runAnswer({
      input: { query: "q" },
      providers: [answerEntry(fake, "gemini"), answerEntry(fake, "exa")],
      groundingSearch: () => Promise.reject(new Error("search backend down")),
    });
    expect(result.answers.map((a) => a.provider)).toEqual(["exa"]);
    expect(result.providers_failed.map((f) => [f.provider, f.reason])).toEqual([
      ["gemini", "invalid_response"],
    ]);
  });

  it("refused admission skips the provider without calling it", async () => {
    const result = await runAnswer({
      input: { query: "q" },
      providers: [answerEntry(fake, "exa"), answerEntry(fake, "kagi")],
      admit: async (id) => (id === "exa" ? { ok: false, reason: "budget_exhausted" } : { ok: true }),
    });
    expect(fake.requests(ANSWER_PREFIX.exa)).toHaveLength(0);
    expect(result.providers_failed).toEqual([
      expect.objectContaining({ provider: "exa", reason: "budget_exhausted", duration_ms: 0 }),
    ]);
    expect(result.spans.find((s) => s.provider === "exa")?.outcome).toBe("skipped_budget");
  });
});
