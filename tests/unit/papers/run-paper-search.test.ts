/**
 * Paper adapters and runPaperSearch through the real HTTP client against the fake provider server:
 * the requests each adapter sends, dedup across real wire formats, filters, sort and fault isolation.
 */
import { describe, expect, it } from "vitest";
import { paperSearchInputSchema } from "@/lib/engine/papers/input";
import { runPaperSearch } from "@/lib/engine/papers/run-paper-search";
import {
  type FakePaper,
  PAPER_PREFIX,
  PAPER_WIRES,
  PUBMED_WIRE,
  setPubmedScenario,
} from "@/tests/fakes/paper-wires";
import { setUpFakeProviders } from "@/tests/fakes/set-up-fake-providers";
import { generous } from "@/tests/support/generous";
import { allPaperEntries, paperEntry } from "./fake-entries";

const fake = setUpFakeProviders(PAPER_WIRES);

const ATTENTION: FakePaper = {
  title: "Attention Is All You Need",
  authors: ["Ashish Vaswani", "Noam Shazeer", "Niki Parmar"],
  year: 2017,
  published: "2017-06-12",
  abstract: "The dominant sequence transduction models are based on complex recurrent networks.",
  arxivId: "1706.03762",
};
const ATTENTION_JOURNAL: FakePaper = {
  ...ATTENTION,
  arxivId: undefined,
  doi: "10.5555/3295222.3295349",
  venue: "Advances in Neural Information Processing Systems",
  published: "2017-12-04",
  citationCount: 100_000,
};
const CRISPR: FakePaper = {
  title: "CRISPR-Cas9 genome editing in human cells",
  authors: ["Le Cong", "Feng Zhang"],
  year: 2013,
  published: "2013-02-15",
  doi: "10.1126/science.1231143",
  pmid: "23287718",
  pmcid: "PMC3795411",
  venue: "Science",
};
const OLD_CLOSED: FakePaper = {
  title: "A closed access study of sequence models",
  authors: ["Jane Doe"],
  year: 2009,
  published: "2009-05-01",
  doi: "10.1000/closed",
  pmid: "111",
  venue: "Journal of Closed Things",
};

const onlyRequest = (prefix: string) => {
  const [request, ...rest] = fake.requests(prefix);
  expect(rest).toEqual([]);
  if (request === undefined) throw new Error(`no request to ${prefix}`);
  return request;
};

describe("paper adapters — requests", () => {
  it("send each provider's parameters, filters, sort, keys and mailto", async () => {
    await runPaperSearch({
      input: {
        query: "transformer attention",
        max_results: 5,
        sort: "date",
        year_from: 2015,
        year_to: 2020,
        open_access: true,
      },
      providers: [
        paperEntry(fake, "arxiv"),
        paperEntry(fake, "pubmed", { apiKey: "ncbi-key-123456", mailto: "ops@example.org" }),
        paperEntry(fake, "semantic_scholar", { apiKey: "s2-key-123456" }),
        paperEntry(fake, "openalex", { mailto: "ops@example.org" }),
      ],
    });

    expect(onlyRequest(PAPER_PREFIX.arxiv).query).toMatchObject({
      search_query: "all:transformer AND all:attention AND submittedDate:[201501010000 TO 202012312359]",
      start: "0",
      max_results: "10",
      sortBy: "submittedDate",
      sortOrder: "descending",
    });
    expect(onlyRequest(PUBMED_WIRE.esearch).query).toEqual({
      db: "pubmed",
      retmode: "json",
      term: "(transformer attention) AND free full text[sb]",
      retmax: "10",
      sort: "pub_date",
      datetype: "pdat",
      mindate: "2015",
      maxdate: "2020",
      api_key: "ncbi-key-123456",
      tool: "searchmux",
      email: "ops@example.org",
    });
    const s2 = onlyRequest(PAPER_PREFIX.semantic_scholar);
    expect(s2.headers["x-api-key"]).toBe("s2-key-123456");
    expect(s2.query).toMatchObject({
      query: "transformer attention",
      limit: "10",
      year: "2015-2020",
      openAccessPdf: "",
    });
    expect(s2.query.fields).toContain("externalIds");
    expect(onlyRequest(PAPER_PREFIX.openalex).query).toEqual({
      search: "transformer attention",
      per_page: "10",
      filter: "publication_year:2015-2020,is_oa:true",
      sort: "publication_date:desc",
      mailto: "ops@example.org",
    });
  });

  it("openalex: the key as api_key, and no more than the 100 a page OpenAlex serves", async () => {
    const entry = paperEntry(fake, "openalex", { apiKey: "openalex-key-123456" });
    const response = await entry.provider.search({
      query: "attention",
      options: { maxResults: 150, sort: "relevance", openAccessOnly: false },
      apiKey: entry.apiKey,
      baseUrl: entry.baseUrl,
      signal: AbortSignal.timeout(generous(5_000)),
    });
    expect(onlyRequest(PAPER_PREFIX.openalex).query).toMatchObject({
      per_page: "100",
      api_key: "openalex-key-123456",
    });
    expect(response.papers.map((paper) => paper.title)).toEqual(["Attention Is All You Need"]);
  });

  it("work keyless: no key headers or parameters, and esummary only for the ids found", async () => {
    setPubmedScenario(fake, { payload: [CRISPR, OLD_CLOSED] });
    const result = await runPaperSearch({ input: { query: "crispr" }, providers: allPaperEntries(fake) });
    expect(fake.requests(PAPER_PREFIX.semantic_scholar)[0]?.headers["x-api-key"]).toBeUndefined();
    expect(fake.requests(PUBMED_WIRE.esearch)[0]?.query.api_key).toBeUndefined();
    expect(fake.requests(PAPER_PREFIX.openalex)[0]?.query).not.toHaveProperty("api_key");
    expect(onlyRequest(PUBMED_WIRE.esummary).query).toMatchObject({ db: "pubmed", id: "23287718,111" });
    expect(result.providers_failed).toEqual([]);
  });
});

describe("runPaperSearch — dedup across real wire formats", () => {
  it("merges the arXiv preprint, the journal version and PubMed's listing by DOI, arXiv id and title", async () => {
    fake.setScenario(PAPER_PREFIX.arxiv, { payload: [ATTENTION] });
    fake.setScenario(PAPER_PREFIX.openalex, { payload: [ATTENTION_JOURNAL, CRISPR] });
    fake.setScenario(PAPER_PREFIX.semantic_scholar, {
      payload: [{ ...ATTENTION_JOURNAL, arxivId: "1706.03762", citationCount: 120_000 }],
    });
    setPubmedScenario(fake, { payload: [{ ...CRISPR, doi: undefined }] });

    const result = await runPaperSearch({ input: { query: "attention" }, providers: allPaperEntries(fake) });

    expect(result.providers_succeeded.map((s) => [s.provider, s.count])).toEqual([
      ["arxiv", 1],
      ["pubmed", 1],
      ["semantic_scholar", 1],
      ["openalex", 2],
    ]);
    expect(result.results).toHaveLength(2);
    const [attention, crispr] = result.results;
    expect(attention).toMatchObject({
      title: "Attention Is All You Need",
      authors: ["Ashish Vaswani", "Noam Shazeer", "Niki Parmar"],
      year: 2017,
      venue: "Advances in Neural Information Processing Systems",
      doi: "10.5555/3295222.3295349",
      arxiv_id: "1706.03762",
      pdf_url: "https://arxiv.org/pdf/1706.03762",
      url: "https://doi.org/10.5555/3295222.3295349",
      citation_count: 120_000,
      abstract: ATTENTION.abstract,
      sources: [
        { provider: "arxiv", rank: 1 },
        { provider: "openalex", rank: 1 },
        { provider: "semantic_scholar", rank: 1 },
      ],
    });
    expect(crispr).toMatchObject({
      doi: "10.1126/science.1231143",
      pmid: "23287718",
      venue: "Science",
      open_access: true,
      sources: [
        { provider: "pubmed", rank: 1 },
        { provider: "openalex", rank: 2 },
      ],
    });
  });

  it("filters and sorts the merged list even when providers ignore the filters", async () => {
    const all = [ATTENTION, CRISPR, OLD_CLOSED];
    for (const prefix of Object.values(PAPER_PREFIX)) fake.setScenario(prefix, { payload: all });
    setPubmedScenario(fake, { payload: all });
    const entries = allPaperEntries(fake);

    const byDate = await runPaperSearch({ input: { query: "q", sort: "date" }, providers: entries });
    expect(byDate.results.map((r) => r.year)).toEqual([2017, 2013, 2009]);

    const recentOpen = await runPaperSearch({
      input: { query: "q", year_from: 2010, open_access: true, max_results: 1, sort: "date" },
      providers: entries,
    });
    expect(recentOpen.results.map((r) => r.title)).toEqual([ATTENTION.title]);
  });
});

describe("runPaperSearch — faults", () => {
  it("reports malformed XML and malformed JSON with their own reasons; the others still answer", async () => {
    fake.setScenario(PAPER_PREFIX.arxiv, { payload: '<?xml version="1.0"?><feed><entry><title>cut off' });
    fake.setScenario(PAPER_PREFIX.semantic_scholar, { fault: "garbage" });
    fake.setScenario(PAPER_PREFIX.openalex, { status: 429, retryAfter: "5" });
    setPubmedScenario(fake, { payload: [CRISPR] });
    fake.setScenario(PUBMED_WIRE.esummary, { fault: "html" });

    const result = await runPaperSearch({ input: { query: "q" }, providers: allPaperEntries(fake) });
    expect(result.providers_failed.map((f) => [f.provider, f.reason])).toEqual([
      ["arxiv", "invalid_response"],
      ["pubmed", "invalid_response"],
      ["semantic_scholar", "invalid_response"],
      ["openalex", "rate_limited"],
    ]);
    expect(result.providers_failed.find((f) => f.provider === "arxiv")?.message).toContain("malformed XML");
    expect(result.providers_failed.find((f) => f.provider === "semantic_scholar")?.message).toContain(
      "malformed JSON",
    );
    expect(result.partial).toBe(true);
  });

  it("keeps the healthy providers' papers when one fails", async () => {
    fake.setScenario(PAPER_PREFIX.semantic_scholar, { status: 500 });
    fake.setScenario(PAPER_PREFIX.arxiv, { payload: [ATTENTION] });
    const result = await runPaperSearch({
      input: { query: "q" },
      providers: [paperEntry(fake, "arxiv"), paperEntry(fake, "semantic_scholar")],
    });
    expect(result.results.map((r) => r.arxiv_id)).toEqual(["1706.03762"]);
    expect(result.providers_failed.map((f) => [f.provider, f.reason, f.status])).toEqual([
      ["semantic_scholar", "http_error", 500],
    ]);
  });

  it("returns by timeout_ms when a provider hangs", async () => {
    fake.setScenario(PAPER_PREFIX.openalex, { fault: "hang" });
    const started = performance.now();
    const result = await runPaperSearch({
      input: { query: "q", timeout_ms: 300 },
      providers: [paperEntry(fake, "openalex"), paperEntry(fake, "arxiv")],
    });
    // The deadline cancels the hung request (the fake sees the client give it up); the bound is generous
    // yet a third of the default deadline (15 s), so a timeout_ms that is not applied still fails.
    await fake.seen(PAPER_PREFIX.openalex, "aborted");
    expect(performance.now() - started).toBeLessThan(generous(300));
    expect(result.providers_failed).toEqual([
      expect.objectContaining({ provider: "openalex", reason: "timeout" }),
    ]);
    expect(result.results).toHaveLength(1);
  });

  it("rejects a backwards year range and clamps max_results", () => {
    expect(paperSearchInputSchema.safeParse({ query: "q", year_from: 2020, year_to: 2010 }).success).toBe(
      false,
    );
    expect(paperSearchInputSchema.parse({ query: "q", max_results: 500 }).max_results).toBe(50);
  });
});
