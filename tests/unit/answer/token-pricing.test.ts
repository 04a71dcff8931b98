/**
 * Answer providers whose price has a token part (Perplexity Sonar, Gemini, Brave Answers, a priced operator
 * model): reserved at the request fee plus a ceiling of tokens, charged at the request fee plus the tokens the
 * provider's answer reports, or the reservation when it reports none.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { answerReservationMicros } from "@/lib/engine/answer/answer-pricing";
import { runAnswer } from "@/lib/engine/answer/run-answer";
import type { AnswerEntry } from "@/lib/engine/answer/types";
import { usdToMicros } from "@/lib/engine/shared/price";
import type { AdmitHook, AttemptReport } from "@/lib/engine/shared/types";
import { ANSWER_PREFIX, ANSWER_WIRES, DEFAULT_ANSWER, type FakeUsage } from "@/tests/fakes/answer-wires";
import { type FakeProviders, startFakeProviders } from "@/tests/fakes/provider-server";
import { type AnswerProviderId, answerEntry } from "./fake-entries";

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

const QUERY = "which async runtime does rust use";

interface Booked {
  reserved?: number;
  report?: AttemptReport;
}

/** One provider's answer under an admission that records what it was asked to reserve and was told. */
async function charged(entry: AnswerEntry, usage: FakeUsage | null): Promise<Booked> {
  fake.setScenario(ANSWER_PREFIX[entry.provider.id as AnswerProviderId], {
    payload: { ...DEFAULT_ANSWER, usage },
  });
  const booked: Booked = {};
  const admit: AdmitHook = async (_id, reserveMicros) => {
    booked.reserved = reserveMicros;
    return {
      ok: true,
      settled: (report) => {
        booked.report = report;
      },
    };
  };
  const result = await runAnswer({ input: { query: QUERY }, providers: [entry], admit });
  expect(result.answers).toHaveLength(1);
  return booked;
}

/** USD per million tokens × tokens = micro-dollars. */
const tokens = (perMillion: number, count: number) => perMillion * count;

describe("answers priced by their tokens", () => {
  it("Perplexity Sonar charges its request fee plus the usage's tokens at $1 / $1 per million", async () => {
    const booked = await charged(answerEntry(fake, "perplexity"), { input: 1000, output: 500 });
    expect(booked.report?.costMicros).toBe(usdToMicros(0.005) + tokens(1, 1500));
    expect(booked.reserved).toBeGreaterThan(booked.report?.costMicros ?? Infinity);
  });

  it("Gemini charges usageMetadata at its table price, thinking as output and url_context's pages as input", async () => {
    const booked = await charged(answerEntry(fake, "gemini"), {
      input: 800,
      output: 300,
      thoughts: 100,
      toolUse: 200,
    });
    expect(booked.report?.costMicros).toBe(Math.ceil(tokens(0.75, 1000) + tokens(3.75, 300)));
  });

  it("Brave Answers charges the <usage> tag's tokens on top of the query fee", async () => {
    const booked = await charged(answerEntry(fake, "brave_answer"), { input: 2000, output: 400 });
    expect(booked.report?.costMicros).toBe(usdToMicros(0.004) + tokens(5, 2400));
  });

  it("the operator model is charged by its usage at SEARCHMUX_LLM_PRICE_PER_MTOK's price", async () => {
    const entry = answerEntry(fake, "llm");
    const priced = {
      ...entry,
      effectivePrice: { ...entry.provider.price, usd_per_million_tokens: [0.15, 0.6] as const },
    };
    const booked = await charged(priced, { input: 1000, output: 1000 });
    expect(booked.report?.costMicros).toBe(Math.ceil(tokens(0.15, 1000) + tokens(0.6, 1000)));
  });

  it("an answer without usage is charged the reservation, and the estimate's figure is that reservation", async () => {
    const entry = answerEntry(fake, "perplexity");
    const booked = await charged(entry, null);
    expect(booked.reserved).toBeDefined();
    expect(booked.report?.costMicros).toBe(booked.reserved);
    expect(answerReservationMicros(entry, QUERY)).toBe(booked.reserved);
  });

  it("a provider without a token price reserves and keeps its request price", async () => {
    const booked = await charged(answerEntry(fake, "exa"), { input: 1000, output: 500 });
    expect(booked.reserved).toBeUndefined();
    expect(booked.report?.costMicros).toBeUndefined();
  });

  it("each adapter asks for at most the output tokens its reservation counts", async () => {
    await charged(answerEntry(fake, "perplexity"), null);
    await charged(answerEntry(fake, "brave_answer"), null);
    await charged(answerEntry(fake, "gemini"), null);
    const body = (id: AnswerProviderId) =>
      fake.requests(ANSWER_PREFIX[id])[0]?.body as Record<string, unknown>;
    const ceiling = answerEntry(fake, "perplexity").provider.tokenCeiling?.(QUERY).output;
    expect(ceiling).toBeGreaterThan(0);
    expect(body("perplexity")).toMatchObject({ max_tokens: ceiling });
    expect(body("brave_answer")).toMatchObject({ max_completion_tokens: ceiling });
    expect(body("gemini")).toMatchObject({ generationConfig: { maxOutputTokens: ceiling } });
  });
});
