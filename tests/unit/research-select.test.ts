import { describe, expect, it } from "vitest";
import { selectPages } from "@/lib/engine/research/select-pages";
import type { SubQueryResults } from "@/lib/engine/research/types";

const listing = (
  url: string,
  title: string,
  sources: Array<[string, number]>,
  snippet = `about ${title}`,
) => ({
  url,
  title,
  snippet,
  sources: sources.map(([provider, rank]) => ({ provider, rank })),
});

const SEARCHES: SubQueryResults[] = [
  {
    query: "rust borrow checker",
    results: [
      listing("https://a.example/one", "A one", [["brave", 1]]),
      listing("https://shared.example/page?utm_source=news", "Shared (long title)", [
        ["brave", 2],
        ["tavily", 5],
      ]),
      listing("ftp://files.example/borrow.txt", "Not a web page", [["brave", 3]]),
      listing("https://a.example/three", "A three", [["tavily", 1]]),
    ],
  },
  {
    query: "rust borrow checker explained",
    results: [
      listing("http://www.shared.example/page/#intro", "", [["brave", 1]], ""),
      listing("https://b.example/two", "B two", [["exa", 2]]),
      listing("javascript:alert(1)", "Script", [["exa", 3]]),
    ],
  },
];

describe("selectPages", () => {
  it("fuses sub-queries by reciprocal rank over normalised URLs, skipping non-web URLs", () => {
    const pages = selectPages(SEARCHES, 10);
    expect(pages.map((page) => page.url)).toEqual([
      "https://shared.example/page",
      "https://a.example/one",
      "https://b.example/two",
      "https://a.example/three",
    ]);
    expect(pages.map((page) => page.score)).toEqual([
      Math.round((1 / 62 + 1 / 61) * 1e12) / 1e12,
      Math.round((1 / 61) * 1e12) / 1e12,
      Math.round((1 / 62) * 1e12) / 1e12,
      // The skipped ftp URL does not move the page after it: positions are the sub-query's own.
      Math.round((1 / 64) * 1e12) / 1e12,
    ]);
  });

  it("keeps the best non-empty title and snippet, and the best-placed URL over https when one came so", () => {
    const [shared] = selectPages(SEARCHES, 1);
    // Its best-placed listing is http://www.shared.example/page/; the https one is shown.
    expect(shared).toMatchObject({
      url: "https://shared.example/page",
      title: "Shared (long title)",
      snippet: "about Shared (long title)",
    });
    expect(shared).not.toHaveProperty("published_at");
    const httpOnly = selectPages([{ query: "q", results: [listing("http://old.example/a/", "Old", [])] }], 1);
    expect(httpOnly[0]?.url).toBe("http://old.example/a/");
  });

  it("keeps the date of the best-placed listing that has one", () => {
    const dated: SubQueryResults[] = [
      { query: "q1", results: [listing("https://d.example/", "D", [["brave", 1]])] },
      {
        query: "q2",
        results: [
          listing("https://e.example/", "E", [["exa", 1]]),
          { ...listing("https://d.example/", "D", [["exa", 2]]), publishedAt: "2026-03-04" },
        ],
      },
    ];
    expect(selectPages(dated, 1)[0]).toMatchObject({ url: "https://d.example/", published_at: "2026-03-04" });
  });

  it("merges found_by from every sub-query's sources", () => {
    const [shared] = selectPages(SEARCHES, 1);
    expect(shared?.found_by).toEqual([
      { query: "rust borrow checker", provider: "brave", rank: 2 },
      { query: "rust borrow checker", provider: "tavily", rank: 5 },
      { query: "rust borrow checker explained", provider: "brave", rank: 1 },
    ]);
  });

  it("counts a page listed twice in one sub-query once, and caps at maxPages", () => {
    const twice: SubQueryResults[] = [
      {
        query: "q",
        results: [
          listing("https://x.example/", "X", [["brave", 1]]),
          listing("https://y.example/", "Y", [["brave", 2]]),
          listing("http://www.x.example", "X again", [["exa", 1]]),
        ],
      },
    ];
    const pages = selectPages(twice, 1);
    expect(pages).toHaveLength(1);
    expect(pages[0]).toMatchObject({
      url: "https://x.example/",
      title: "X",
      score: Math.round((1 / 61) * 1e12) / 1e12,
    });
    expect(pages[0]?.found_by.map((f) => f.provider)).toEqual(["brave", "exa"]);
  });

  it("breaks equal scores by URL, so the order does not depend on input order", () => {
    const tie = (first: string, second: string): SubQueryResults[] => [
      { query: "q1", results: [listing(first, "1", [["brave", 1]])] },
      { query: "q2", results: [listing(second, "2", [["brave", 1]])] },
    ];
    const order = ["https://m.example/", "https://n.example/"];
    expect(selectPages(tie("https://n.example/", "https://m.example/"), 5).map((p) => p.url)).toEqual(order);
    expect(selectPages(tie("https://m.example/", "https://n.example/"), 5).map((p) => p.url)).toEqual(order);
    expect(selectPages([], 5)).toEqual([]);
  });
});
