import { describe, expect, it } from "vitest";
import { normalizeArxivId, normalizeDoi, titleAuthorKey } from "@/lib/engine/papers/identifiers";
import { mergePapers } from "@/lib/engine/papers/merge";
import { fetchPaperPdf, paperPdfUrl } from "@/lib/engine/papers/pdf";
import { selectPapers } from "@/lib/engine/papers/select";
import type { PaperRecord, RawPaper } from "@/lib/engine/papers/types";

const paper = (overrides: Partial<RawPaper>): RawPaper => ({
  title: "Attention Is All You Need",
  authors: ["Ashish Vaswani", "Noam Shazeer"],
  ...overrides,
});

describe("identifiers", () => {
  it("normalises DOIs and reads arXiv's DataCite DOIs as arXiv ids", () => {
    expect(normalizeDoi("https://doi.org/10.1000/ABC.Def")).toEqual({ doi: "10.1000/abc.def" });
    expect(normalizeDoi("doi:10.1000/x")).toEqual({ doi: "10.1000/x" });
    expect(normalizeDoi("10.48550/arXiv.1706.03762")).toEqual({ arxivId: "1706.03762" });
    expect(normalizeDoi("not a doi")).toEqual({});
  });

  it("normalises arXiv ids from URLs, prefixes and versions", () => {
    expect(normalizeArxivId("http://arxiv.org/abs/1706.03762v5")).toBe("1706.03762");
    expect(normalizeArxivId("arXiv:1706.03762")).toBe("1706.03762");
    expect(normalizeArxivId("https://arxiv.org/pdf/hep-th/9901001v1")).toBe("hep-th/9901001");
    expect(normalizeArxivId("garbage")).toBeUndefined();
  });

  it("keys titles with the first author's family name across name orders, accents and markup", () => {
    const a = titleAuthorKey("Attention <i>is</i> all you need!", ["Ashish Vaswani"]);
    expect(titleAuthorKey("ATTENTION IS ALL YOU NEED", ["A. Vaswani"])).toBe(a);
    expect(titleAuthorKey("Éclair analysis of things", ["José Núñez"])).toBe(
      titleAuthorKey("Eclair analysis of things", ["J Nunez"]),
    );
    expect(titleAuthorKey("Short", ["X"])).toBeUndefined();
  });
});

describe("mergePapers", () => {
  it("joins an arXiv preprint, its journal version and a bridging record into one paper", () => {
    const merged = mergePapers([
      {
        provider: "arxiv",
        papers: [paper({ arxivId: "1706.03762", venue: "arXiv", year: 2017, abstract: "Short." })],
      },
      {
        provider: "openalex",
        papers: [
          paper({
            doi: "https://doi.org/10.5555/NIPS.2017",
            venue: "NeurIPS",
            year: 2017,
            citationCount: 90,
          }),
        ],
      },
      {
        provider: "semantic_scholar",
        papers: [
          paper({ title: "Other paper entirely", authors: ["Someone Else"] }),
          paper({
            doi: "10.5555/nips.2017",
            arxivId: "1706.03762",
            citationCount: 120,
            abstract: "A longer abstract.",
          }),
        ],
      },
    ]);
    expect(merged).toHaveLength(2);
    const attention = merged.find((r) => r.arxiv_id === "1706.03762");
    expect(attention).toMatchObject({
      doi: "10.5555/nips.2017",
      venue: "NeurIPS",
      year: 2017,
      url: "https://doi.org/10.5555/nips.2017",
      pdf_url: "https://arxiv.org/pdf/1706.03762",
      citation_count: 120,
      abstract: "A longer abstract.",
      open_access: true,
      sources: [
        { provider: "arxiv", rank: 1 },
        { provider: "openalex", rank: 1 },
        { provider: "semantic_scholar", rank: 2 },
      ],
    });
    expect(attention?.score).toBeCloseTo(2 / 61 + 1 / 62, 12);
  });

  it("joins the same paper with and without a DOI by title and first author", () => {
    const merged = mergePapers([
      { provider: "pubmed", papers: [paper({ authors: ["A Vaswani"], pmid: "123", doi: "10.1/x" })] },
      { provider: "openalex", papers: [paper({ title: "Attention is all you need." })] },
    ]);
    expect(merged).toHaveLength(1);
    expect(merged[0]).toMatchObject({ doi: "10.1/x", pmid: "123", authors: ["A Vaswani"] });
  });

  it("never merges listings whose DOIs disagree, even with the same title and author", () => {
    const merged = mergePapers([
      { provider: "openalex", papers: [paper({ doi: "10.1/erratum" })] },
      { provider: "semantic_scholar", papers: [paper({ doi: "10.1/original" })] },
    ]);
    expect(merged.map((r) => r.doi).sort()).toEqual(["10.1/erratum", "10.1/original"]);
  });
});

describe("selectPapers", () => {
  const record = (overrides: Partial<PaperRecord>): PaperRecord => ({
    title: "T",
    authors: [],
    year: null,
    published: null,
    venue: null,
    abstract: null,
    doi: null,
    arxiv_id: null,
    pmid: null,
    url: null,
    pdf_url: null,
    citation_count: null,
    open_access: false,
    score: 0,
    sources: [{ provider: "p", rank: 1 }],
    ...overrides,
  });
  const records = [
    record({ title: "old", year: 2015, published: "2015-03-01", score: 0.03 }),
    record({ title: "new", year: 2023, published: "2023-01-02", score: 0.01, open_access: true }),
    record({ title: "undated", score: 0.02 }),
  ];
  const base = { maxResults: 10, sort: "relevance" as const, openAccessOnly: false };

  it("orders by fused score or by date, unknown dates last", () => {
    expect(selectPapers(records, base).map((r) => r.title)).toEqual(["old", "undated", "new"]);
    expect(selectPapers(records, { ...base, sort: "date" }).map((r) => r.title)).toEqual([
      "new",
      "old",
      "undated",
    ]);
  });

  it("applies year range, open access and max_results", () => {
    expect(selectPapers(records, { ...base, yearFrom: 2016 }).map((r) => r.title)).toEqual(["new"]);
    expect(selectPapers(records, { ...base, yearTo: 2020 }).map((r) => r.title)).toEqual(["old"]);
    expect(selectPapers(records, { ...base, openAccessOnly: true }).map((r) => r.title)).toEqual(["new"]);
    expect(selectPapers(records, { ...base, maxResults: 1 })).toHaveLength(1);
  });
});

describe("paper PDF path", () => {
  it("prefers the arXiv PDF, falls back to the open PDF link, and says when there is none", async () => {
    expect(paperPdfUrl({ arxiv_id: "1706.03762", pdf_url: "https://x.example/a.pdf" })).toBe(
      "https://arxiv.org/pdf/1706.03762",
    );
    const fetched: string[] = [];
    const fetchPdf = async (url: string) => {
      fetched.push(url);
      return `text of ${url}`;
    };
    await expect(
      fetchPaperPdf({ arxiv_id: null, pdf_url: "https://x.example/a.pdf" }, fetchPdf),
    ).resolves.toEqual({
      pdf_url: "https://x.example/a.pdf",
      content: "text of https://x.example/a.pdf",
    });
    await expect(fetchPaperPdf({ arxiv_id: null, pdf_url: null }, fetchPdf)).resolves.toBeNull();
    expect(fetched).toEqual(["https://x.example/a.pdf"]);
  });
});
