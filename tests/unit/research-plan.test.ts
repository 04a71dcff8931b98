import { describe, expect, it } from "vitest";
import { parsePlan, planQueries, queryVariants } from "@/lib/engine/research/plan";
import type { ResearchModel } from "@/lib/engine/research/types";
import { ProviderError } from "@/lib/engine/shared/errors";
import { fakeResearchModel } from "@/tests/support/fake-research-model";

const QUESTION = "How does Rust's borrow checker work?";
const plan = (count: number, model?: ResearchModel) =>
  planQueries({
    question: QUESTION,
    count,
    model,
    deadline: new AbortController().signal,
    origin: performance.now(),
  });

describe("planQueries without a model", () => {
  it("gives the question, its keywords and fixed reformulations, capped at count", async () => {
    expect(await plan(5)).toEqual({
      queries: [
        QUESTION,
        "rust borrow checker work",
        "rust borrow checker work overview",
        "rust borrow checker work explained",
        "rust borrow checker work latest",
      ],
      planner: "variants",
    });
  });

  it("keeps variants distinct when the question is its own keywords, and stops when they run out", () => {
    expect(queryVariants("Borrow  Checker", 3)).toEqual([
      "Borrow Checker",
      "borrow checker overview",
      "borrow checker explained",
    ]);
    expect(queryVariants("what is it?", 5)).toEqual(["what is it?"]);
    expect(queryVariants("tokio", 20)).toHaveLength(7);
  });
});

describe("planQueries with a model", () => {
  it("puts the question first, then the model's queries: deduplicated, cleaned and capped", async () => {
    const model = fakeResearchModel(
      [
        "```json",
        JSON.stringify([
          "how does rust's borrow checker work?",
          "rust ownership and borrowing rules",
          "  Rust   ownership and borrowing RULES ",
          "",
          42,
          "x".repeat(201),
          "non-lexical lifetimes NLL rust",
          "polonius borrow checker",
          "rust borrow checker errors E0502",
        ]),
        "```",
      ].join("\n"),
    );
    const result = await plan(4, model);
    expect(result.queries).toEqual([
      QUESTION,
      "rust ownership and borrowing rules",
      "non-lexical lifetimes NLL rust",
      "polonius borrow checker",
    ]);
    expect(result.planner).toBe("model");
    expect(result.failure).toBeUndefined();
    expect(result.span).toMatchObject({ provider: "llm", kind: "llm", outcome: "ok", status: 200 });
    expect(model.prompts).toHaveLength(1);
    expect(model.prompts[0]?.system).toContain("Write 3 distinct search queries");
    expect(model.prompts[0]?.user).toBe(`Research question: ${QUESTION}`);
  });

  it("reads one query per line when the reply is not JSON, dropping preambles and list markers", () => {
    expect(
      parsePlan(
        'Here are the queries:\n1. rust borrow checker internals\n- "two-phase borrows"\n* MIR borrowck\n\n',
      ),
    ).toEqual(["rust borrow checker internals", "two-phase borrows", "MIR borrowck"]);
  });

  it("falls back to the variants when the reply holds no usable query, with the reason", async () => {
    const garbage = fakeResearchModel(
      `{"error": "overloaded"}\n<html><body>502</body></html>\n${"The borrow checker is a part of the compiler that ".repeat(6)}\n---`,
    );
    const result = await plan(3, garbage);
    expect(result.queries).toEqual([
      QUESTION,
      "rust borrow checker work",
      "rust borrow checker work overview",
    ]);
    expect(result.planner).toBe("variants");
    expect(result.failure).toMatchObject({ provider: "llm", reason: "invalid_response" });
    expect(result.span?.outcome).toBe("empty");
  });

  it("falls back to the variants when admission is refused, without calling the model", async () => {
    const refused = fakeResearchModel('["never used"]', async () => ({
      ok: false,
      reason: "budget_exhausted",
    }));
    const result = await plan(2, refused);
    expect(result).toMatchObject({
      queries: [QUESTION, "rust borrow checker work"],
      planner: "variants",
      failure: { provider: "llm", reason: "budget_exhausted" },
      span: { outcome: "skipped_budget" },
    });
    expect(refused.prompts).toHaveLength(0);
  });

  it("falls back to the variants when the call fails", async () => {
    const failing = fakeResearchModel(new ProviderError("http_error", "model server answered 503", 503));
    const result = await plan(2, failing);
    expect(result.planner).toBe("variants");
    expect(result.failure).toMatchObject({ reason: "http_error", status: 503 });
    expect(result.span?.outcome).toBe("error");
  });

  it("does not call the model for a single query", async () => {
    const model = fakeResearchModel('["unused"]');
    expect(await plan(1, model)).toEqual({ queries: [QUESTION], planner: "variants" });
    expect(model.prompts).toHaveLength(0);
  });
});
