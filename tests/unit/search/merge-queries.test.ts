import { describe, expect, it } from "vitest";
import { mergeQueryResults } from "@/lib/engine/search/merge-queries";
import type { FusedResult } from "@/lib/engine/search/types";

const result = (url: string, provider: string, rank: number): FusedResult => ({
  title: url,
  url,
  snippet: "",
  score: 0,
  sources: [{ provider, rank }],
  snippet_source: "aggregated",
});

describe("mergeQueryResults", () => {
  it("shows a page by the best-ranked https URL any query found it at, else the best-ranked one", () => {
    const merged = mergeQueryResults(
      [
        [result("http://www.example.com/a", "brave", 1), result("http://only-http.example/", "brave", 2)],
        [result("https://n.example/", "exa", 1), result("https://example.com/a/", "exa", 3)],
      ],
      10,
    );
    const page = merged.find((r) => r.url.includes("example.com"));
    expect(page?.url).toBe("https://example.com/a/");
    // Everything else of the best-ranked query's listing stays.
    expect(page?.title).toBe("http://www.example.com/a");
    expect(page?.sources).toEqual([
      { provider: "brave", rank: 1 },
      { provider: "exa", rank: 3 },
    ]);
    expect(merged.find((r) => r.url.includes("only-http"))?.url).toBe("http://only-http.example/");
  });
});
