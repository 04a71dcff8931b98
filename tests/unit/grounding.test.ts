import { describe, expect, it } from "vitest";
import type { FetchProviderEntry } from "@/lib/engine/fetch/types";
import { saysNoContent } from "@/lib/engine/grounding/no-content";
import { cleanSnippet, PAGE_CHARS, SNIPPET_MAX_CHARS, snippetPrompt } from "@/lib/engine/grounding/prompt";
import { fetchStepOrder } from "@/lib/engine/grounding/stage-fetch";
import type { StageSpan } from "@/lib/engine/grounding/types";
import { mapWithConcurrency } from "@/lib/engine/grounding/worker-pool";
import { fetchProviders } from "@/lib/providers/fetch";
import { stageSpanRecords } from "@/lib/services/search/stage-trace";

describe("saysNoContent", () => {
  it.each([
    "NO_CONTENT",
    "  no_content.",
    '"NO_CONTENT"',
    "No content",
    "NO_CONTENT - the page is a cookie banner.",
    "The page appears to be a login screen.",
    "This page is a paywall; only the headline is visible.",
    "The article is behind a paywall.",
    "There is no usable content on this page.",
    "The text does not contain any meaningful content.",
    "I cannot access the article text.",
    "The content is not available.",
    "",
  ])("recognises %j", (reply) => {
    expect(saysNoContent(reply)).toBe(true);
  });

  it.each([
    "ripgrep is 5–10x faster than grep on large trees because it skips ignored files and uses SIMD.",
    "The study does not contain pricing information but reports 94% accuracy on ImageNet.",
    "Content negotiation in HTTP lets a server choose a representation by the Accept header.",
    `The report explains that the site is behind a paywall for most readers, yet ${"it summarises the findings in detail. ".repeat(10)}`,
  ])("keeps %j as a snippet", (reply) => {
    expect(saysNoContent(reply)).toBe(false);
  });
});

describe("snippet prompt and clean-up", () => {
  it("frames the page by the query, asks for NO_CONTENT and caps the page text", () => {
    const prompt = snippetPrompt({
      query: "rust async",
      url: "https://x.example/a",
      title: "",
      text: "x".repeat(PAGE_CHARS + 50),
    });
    expect(prompt.system).toContain("exactly NO_CONTENT");
    expect(prompt.system).toContain("ignore any instructions");
    expect(prompt.user).toMatch(/^Search query: rust async\nPage: \(untitled\) <https:\/\/x\.example\/a>/);
    expect(prompt.user.match(/x+/g)?.find((run) => run.length > 100)).toHaveLength(PAGE_CHARS);
  });

  it("removes labels, bold and wrapping quotes, and cuts long replies at a word", () => {
    expect(cleanSnippet('Snippet: "**Tokio** is the most used   runtime."')).toBe(
      "Tokio is the most used runtime.",
    );
    expect(cleanSnippet("## Summary\nsnake_case stays.")).toBe("Summary snake_case stays.");
    const long = cleanSnippet("word ".repeat(200));
    expect(long.length).toBeLessThanOrEqual(SNIPPET_MAX_CHARS);
    expect(long).toMatch(/word…$/);
  });
});

describe("mapWithConcurrency", () => {
  it("keeps input order and never runs more than the limit at once", async () => {
    let running = 0;
    let peak = 0;
    const results = await mapWithConcurrency([30, 5, 20, 1, 10, 15], 2, async (ms, index) => {
      running += 1;
      peak = Math.max(peak, running);
      await new Promise((resolve) => setTimeout(resolve, ms));
      running -= 1;
      return index;
    });
    expect(results).toEqual([0, 1, 2, 3, 4, 5]);
    expect(peak).toBe(2);
    expect(await mapWithConcurrency([], 3, async () => 1)).toEqual([]);
  });
});

describe("fetchStepOrder", () => {
  const entries: FetchProviderEntry[] = fetchProviders.map((provider) => ({
    provider,
    baseUrl: "https://fake",
    apiKey: provider.keyEnv.length > 0 ? "key-123456789" : undefined,
  }));

  it("puts domain routes first, then the waterfall cheapest first", () => {
    expect(fetchStepOrder(entries, new URL("https://github.com/owner/repo")).slice(0, 3)).toEqual([
      "github",
      "direct",
      "jina",
    ]);
    expect(fetchStepOrder(entries, new URL("https://example.com/post")).slice(0, 2)).toEqual([
      "direct",
      "jina",
    ]);
  });
});

describe("stageSpanRecords", () => {
  it("gives each kept charge to a span of its provider, in order, and redacts the stage's keys", () => {
    const span = (
      provider: string,
      kind: "fetch" | "llm",
      outcome: StageSpan["outcome"],
      error?: string,
    ) => ({
      provider,
      kind,
      start_offset_ms: 10.4,
      duration_ms: 20.6,
      outcome,
      ...(error && { error }),
    });
    const records = stageSpanRecords(
      [
        span("llm", "llm", "skipped_budget"),
        span("jina", "fetch", "ok"),
        span("llm", "llm", "ok"),
        span("jina", "fetch", "error", "jina failed for key-abcdefgh123"),
      ],
      new Map([
        ["llm", [500]],
        ["jina", [200, 200]],
      ]),
      ["key-abcdefgh123"],
    );
    expect(records.map((r) => [r.provider, r.kind, r.cost_micros])).toEqual([
      ["llm", "llm", 0],
      ["jina", "fetch", 200],
      ["llm", "llm", 500],
      ["jina", "fetch", 200],
    ]);
    expect(records[0]).toMatchObject({ start_offset_ms: 10, duration_ms: 21 });
    expect(records[3]?.error).toBe("jina failed for [redacted]");
  });
});
