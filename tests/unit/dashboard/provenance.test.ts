import { describe, expect, it } from "vitest";
import { bestRankText, domainOf, groupByProvider } from "@/lib/dashboard/provenance";

describe("groupByProvider", () => {
  it("gives one group per provider, best-placed first, each with every listing best rank first", () => {
    const groups = groupByProvider([
      { provider: "kagi", rank: 4, query: "tide pools" },
      { provider: "brave", rank: 2, query: "tide pools" },
      { provider: "kagi", rank: 1, query: "how tide pools form" },
      { provider: "brave", rank: 3, query: "how tide pools form" },
      { provider: "exa", rank: 2, query: "tide pools" },
    ]);
    expect(groups.map((group) => [group.provider, group.bestRank])).toEqual([
      ["kagi", 1],
      ["brave", 2],
      ["exa", 2],
    ]);
    expect(groups[0]?.listings).toEqual([
      { provider: "kagi", rank: 1, query: "how tide pools form" },
      { provider: "kagi", rank: 4, query: "tide pools" },
    ]);
  });

  it("groups thirty listings of five providers into five badges", () => {
    const providers = ["brave", "exa", "kagi", "serper", "tavily"];
    const listings = Array.from({ length: 6 }, (_, query) =>
      providers.map((provider, i) => ({ provider, rank: ((i + query) % 7) + 1, query: `q${query}` })),
    ).flat();
    const groups = groupByProvider(listings);
    expect(groups).toHaveLength(5);
    expect(groups.every((group) => group.listings.length === 6)).toBe(true);
    expect(groups.map((group) => group.listings.length).reduce((a, b) => a + b)).toBe(30);
  });

  it("takes a search result's sources (no query) as they are", () => {
    expect(groupByProvider([{ provider: "tavily", rank: 1 }])).toEqual([
      { provider: "tavily", bestRank: 1, listings: [{ provider: "tavily", rank: 1 }] },
    ]);
    expect(groupByProvider([])).toEqual([]);
  });
});

describe("the words beside a badge", () => {
  it("names the best rank, and how many listings when there are several", () => {
    expect(bestRankText({ provider: "brave", bestRank: 2, listings: [{ provider: "brave", rank: 2 }] })).toBe(
      "brave: best rank #2",
    );
    const twice = [
      { provider: "kagi", rank: 1 },
      { provider: "kagi", rank: 3 },
    ];
    expect(bestRankText({ provider: "kagi", bestRank: 1, listings: twice })).toBe(
      "kagi: best rank #1 (2 listings)",
    );
  });

  it("shows a page by its domain, without www.", () => {
    expect(domainOf("https://www.example.org/a/b?c=1")).toBe("example.org");
    expect(domainOf("http://docs.rs:8080/x")).toBe("docs.rs");
    expect(domainOf("not a url")).toBe("not a url");
  });
});
