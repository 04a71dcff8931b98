import { describe, expect, it } from "vitest";
import { collapseSnippets } from "@/lib/engine/search/snippets";
import { contentWords, splitSentences, tokenize } from "@/lib/engine/search/text";

const terms = (query: string) => contentWords(tokenize(query));

describe("collapseSnippets", () => {
  it("keeps the single best snippet when they mostly overlap", () => {
    const snippets = [
      "Tokio is an asynchronous runtime for Rust.",
      "Tokio is an asynchronous runtime for the Rust programming language, with timers and I/O.",
      "tokio: asynchronous runtime for Rust",
    ];
    expect(collapseSnippets(snippets, terms("tokio rust runtime timers"))).toBe(snippets[1]);
  });

  it("prefers the snippet that covers the query", () => {
    const snippets = [
      "Our company was founded in 1999 and has offices in many cities around the world.",
      "Our company was founded in 1999; pricing starts at 10 USD per month for the basic plan.",
    ];
    const collapsed = collapseSnippets(snippets, terms("pricing plan"));
    expect(collapsed.startsWith("Our company was founded in 1999; pricing")).toBe(true);
  });

  it("merges distinct snippets sentence by sentence, best first, within the budget", () => {
    const snippets = [
      "Postgres supports JSONB indexes. It was first released in 1996.",
      "JSONB indexes use GIN. They speed up containment queries on JSONB columns.",
      "Postgres supports JSONB indexes. Vacuum reclaims storage.",
    ];
    const collapsed = collapseSnippets(snippets, terms("postgres jsonb indexes gin"));
    const sentences = splitSentences(collapsed);
    expect(sentences).toContain("JSONB indexes use GIN.");
    expect(sentences).toContain("Postgres supports JSONB indexes.");
    expect(new Set(sentences).size).toBe(sentences.length);
    expect(sentences.filter((s) => s === "Postgres supports JSONB indexes.")).toHaveLength(1);
    expect(collapsed.length).toBeLessThanOrEqual(400);
  });

  it("never exceeds the budget and never repeats a sentence", () => {
    const sentence = (i: number) =>
      `Fact number ${i} about solar panels and inverter efficiency ${"x".repeat(i)}.`;
    const snippets = [0, 1, 2, 3].map((p) => [0, 1, 2, 3, 4].map((i) => sentence(p * 5 + i)).join(" "));
    for (const budget of [60, 150, 400]) {
      const collapsed = collapseSnippets(snippets, terms("solar inverter"), budget);
      expect(collapsed.length).toBeLessThanOrEqual(budget);
      const sentences = splitSentences(collapsed);
      expect(new Set(sentences).size).toBe(sentences.length);
    }
  });

  it("cuts a single over-long snippet at a word boundary", () => {
    const long = `${"word ".repeat(200)}end`;
    const collapsed = collapseSnippets([long], new Set(), 50);
    expect(collapsed.length).toBeLessThanOrEqual(50);
    expect(collapsed.endsWith("word…")).toBe(true);
  });

  it("ignores empty snippets and exact duplicates", () => {
    expect(collapseSnippets(["", "  ", "Same text.", "same  TEXT."], new Set())).toBe("Same text.");
    expect(collapseSnippets([], new Set())).toBe("");
  });
});

describe("splitSentences", () => {
  it("splits at sentence ends followed by a capital or digit only", () => {
    expect(splitSentences("One. Two! 3 is a number? e.g. not this. Last…  Done")).toEqual([
      "One.",
      "Two!",
      "3 is a number? e.g. not this.",
      "Last…",
      "Done",
    ]);
  });
});
