import { describe, expect, it } from "vitest";
import { fuseResults } from "@/lib/engine/search/fusion";
import { rankProviderResults } from "@/lib/engine/search/ranked-results";
import { rescueTail } from "@/lib/engine/search/tail-rescue";

const item = (host: string, bestRank: number) => ({ host, bestRank, id: `${host}#${bestRank}` });

describe("rescueTail", () => {
  it("swaps a high-ranked tail result from a new site for the lowest-scored duplicate-site result", () => {
    const ranked = [item("a.com", 1), item("a.com", 2), item("b.com", 1), item("a.com", 4), item("c.com", 2)];
    expect(rescueTail(ranked, 4, 3).map((r) => r.id)).toEqual(["a.com#1", "a.com#2", "b.com#1", "c.com#2"]);
  });

  it("ignores tail results ranked below the rescue rank or from sites already shown", () => {
    const ranked = [item("a.com", 1), item("a.com", 2), item("b.com", 5), item("a.com", 1), item("c.com", 4)];
    expect(rescueTail(ranked, 2, 3).map((r) => r.id)).toEqual(["a.com#1", "a.com#2"]);
  });

  it("never removes a site's last result", () => {
    const ranked = [item("a.com", 1), item("b.com", 1), item("c.com", 1), item("d.com", 1)];
    expect(rescueTail(ranked, 3, 3).map((r) => r.id)).toEqual(["a.com#1", "b.com#1", "c.com#1"]);
  });

  it("rescues one result per new site, as many as there are victims, keeping the size", () => {
    const ranked = [
      item("a.com", 1),
      item("a.com", 2),
      item("a.com", 3),
      item("b.com", 1),
      item("x.com", 1),
      item("x.com", 2),
      item("y.com", 3),
      item("z.com", 1),
    ];
    const kept = rescueTail(ranked, 4, 3).map((r) => r.id);
    // a.com has 3 results: two can go (lowest first), a.com#1 stays.
    expect(kept).toEqual(["a.com#1", "b.com#1", "x.com#1", "y.com#3"]);
    expect(kept).toHaveLength(4);
  });

  it("compares registrable sites, so subdomains count as the same site", () => {
    const ranked = [
      item("docs.a.com", 1),
      item("blog.a.com", 2),
      item("a.co.uk", 1),
      item("news.b.co.uk", 1),
    ];
    expect(rescueTail(ranked, 3, 3).map((r) => r.id)).toEqual([
      "docs.a.com#1",
      "a.co.uk#1",
      "news.b.co.uk#1",
    ]);
  });

  it("is a no-op when nothing is below the cut", () => {
    const ranked = [item("a.com", 1), item("a.com", 2)];
    expect(rescueTail(ranked, 5, 3)).toEqual(ranked);
  });
});

describe("tail rescue inside fusion", () => {
  it("brings a provider's #1 from an unseen site into the top N", () => {
    const agreeing = ["https://big.com/1", "https://big.com/2", "https://big.com/3", "https://other.com/"];
    const lists = [
      rankProviderResults(
        "p1",
        agreeing.map((url) => ({ url, title: url, snippet: "" })),
      ),
      rankProviderResults(
        "p2",
        agreeing.map((url) => ({ url, title: url, snippet: "" })),
      ),
      rankProviderResults("p3", [{ url: "https://niche.org/", title: "Niche", snippet: "" }]),
    ];
    const fused = fuseResults(lists, { maxResults: 3, queryTerms: new Set() });
    expect(fused.map((r) => r.url)).toEqual(["https://big.com/1", "https://big.com/2", "https://niche.org/"]);
  });
});
