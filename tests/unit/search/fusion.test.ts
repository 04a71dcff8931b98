import { describe, expect, it } from "vitest";
import { fuseResults, RRF_K } from "@/lib/engine/search/fusion";
import { rankProviderResults } from "@/lib/engine/search/ranked-results";
import type { ProviderResult } from "@/lib/engine/search/types";

const rrf = (...ranks: number[]) => ranks.reduce((sum, rank) => sum + 1 / (RRF_K + rank), 0);

function result(url: string, title = `Title of ${url}`, snippet = ""): ProviderResult {
  return { url, title, snippet };
}

function list(provider: string, urls: ReadonlyArray<string | ProviderResult>) {
  return rankProviderResults(
    provider,
    urls.map((item) => (typeof item === "string" ? result(item) : item)),
  );
}

const fuse = (lists: ReturnType<typeof list>[], maxResults = 10) =>
  fuseResults(lists, { maxResults, queryTerms: new Set(), rescueRank: 0 });

describe("fuseResults (RRF)", () => {
  it("scores Σ 1/(60 + rank) over normalised URLs", () => {
    const fused = fuse([
      list("alpha", ["https://a.com/1", "https://b.com/2", "https://c.com/3"]),
      list("beta", ["http://www.b.com/2/?utm_source=x", "https://a.com/1#top"]),
      list("gamma", ["https://c.com/3"]),
    ]);
    expect(fused.map((r) => [r.url, r.score])).toEqual([
      ["https://a.com/1", expect.closeTo(rrf(1, 2), 12)],
      ["https://b.com/2", expect.closeTo(rrf(2, 1), 12)], // alpha gave it over https
      ["https://c.com/3", expect.closeTo(rrf(3, 1), 12)],
    ]);
    expect(fused[0]?.score).toBeCloseTo(1 / 61 + 1 / 62, 12);
    expect(fused[2]?.score).toBeCloseTo(1 / 63 + 1 / 61, 12);
  });

  it("breaks exact ties by best rank, then provider count, then URL, whatever the list order", () => {
    const lists = [
      list("p1", ["https://z.com/", "https://y.com/", "https://x.com/"]),
      list("p2", ["https://y.com/", "https://z.com/", "https://w.com/"]),
    ];
    const forward = fuse(lists).map((r) => r.url);
    const backward = fuse([...lists].reverse()).map((r) => r.url);
    // y and z tie on 1/61 + 1/62 and on best rank 1: the URL decides.
    expect(forward).toEqual(["https://y.com/", "https://z.com/", "https://w.com/", "https://x.com/"]);
    expect(backward).toEqual(forward);
  });

  it("keeps provenance sorted by rank then provider, and the best-ranked URL, cleaned, as the link", () => {
    const fused = fuse([
      list("zeta", ["https://n.com/0", "https://n.com/1", "http://www.example.com/page/?id=1"]),
      list("alpha", ["https://n.com/2", "https://n.com/3", "https://example.com/page?id=1"]),
      list("beta", ["https://example.com/page?utm_source=beta&id=1#frag"]),
    ]);
    const page = fused.find((r) => r.url.includes("example.com"));
    expect(page?.sources).toEqual([
      { provider: "beta", rank: 1 },
      { provider: "alpha", rank: 3 },
      { provider: "zeta", rank: 3 },
    ]);
    expect(page?.url).toBe("https://example.com/page?id=1");
    expect(page?.snippet_source).toBe("aggregated");
    expect(page?.score).toBeCloseTo(rrf(1, 3, 3), 12);
  });

  it("shows a page that came over both schemes by its best-ranked https link", () => {
    const fused = fuse([
      list("alpha", ["http://www.example.com/page/", "http://plain.example/"]),
      list("beta", ["https://n.com/", "https://example.com/page"]),
      list("gamma", ["https://n.com/", "https://n.com/x", "https://www.example.com/page/"]),
    ]);
    expect(fused.find((r) => r.url.includes("example.com"))?.url).toBe("https://example.com/page");
    expect(fused.find((r) => r.url.includes("plain"))?.url).toBe("http://plain.example/");
  });

  it("counts a provider once per URL, at its best rank", () => {
    const fused = fuse([list("p", ["https://a.com/x", "https://a.com/x/", "https://b.com/"])]);
    expect(fused.map((r) => r.sources)).toEqual([[{ provider: "p", rank: 1 }], [{ provider: "p", rank: 3 }]]);
  });

  it("drops results whose URL cannot be normalised", () => {
    const fused = fuse([list("p", ["ftp://a.com/x", "not a url", "https://ok.com/"])]);
    expect(fused.map((r) => r.url)).toEqual(["https://ok.com/"]);
    expect(fused[0]?.sources).toEqual([{ provider: "p", rank: 3 }]);
  });

  it("picks the best-ranked title that is not empty, a bare URL or cut off", () => {
    const fused = fuse([
      list("a", [result("https://t.com/", "https://t.com/")]),
      list("b", [result("https://t.com/", "A long title that was cut…")]),
      list("c", ["https://zz.com/", result("https://t.com/", "The full title")]),
    ]);
    expect(fused[0]?.title).toBe("The full title");
  });

  it("returns at most maxResults", () => {
    const urls = Array.from({ length: 30 }, (_, i) => `https://s${i}.com/`);
    expect(fuse([list("p", urls)], 12)).toHaveLength(12);
  });
});
