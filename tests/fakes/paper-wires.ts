/**
 * Fake paper APIs for startFakeProviders(PAPER_WIRES). Each wire renders `scenario.payload` (FakePaper[];
 * DEFAULT_PAPERS when absent) in its provider's documented shape (see the adapters' headers): an Atom
 * feed for arXiv (a string payload is served verbatim, for malformed-XML tests), E-utilities JSON for
 * PubMed, JSON for Semantic Scholar and OpenAlex.
 *
 * PubMed makes two calls (esearch, then esummary) and a wire serves one path, so its wires sit at the
 * server root: pass `fake.url` as PubMed's base URL and set scenarios on both PUBMED_WIRE ids
 * (setPubmedScenario does that).
 */
import {
  type FakeProviders,
  type FakeResponse,
  type FakeScenario,
  type FakeWire,
  header,
  json,
  keyless,
  type RecordedRequest,
} from "./provider-server";

export interface FakePaper {
  title: string;
  authors: string[];
  year?: number;
  published?: string;
  venue?: string;
  abstract?: string;
  doi?: string;
  arxivId?: string;
  pmid?: string;
  pmcid?: string;
  pdfUrl?: string;
  citationCount?: number;
  openAccess?: boolean;
}

const DEFAULT_PAPERS: readonly FakePaper[] = [
  {
    title: "Attention Is All You Need",
    authors: ["Ashish Vaswani", "Noam Shazeer"],
    year: 2017,
    published: "2017-06-12",
    abstract: "The dominant sequence transduction models are based on complex recurrent networks.",
    arxivId: "1706.03762",
  },
];

export const PAPER_PREFIX = {
  arxiv: "arxiv",
  semantic_scholar: "semantic-scholar",
  openalex: "openalex",
} as const;
const OPENALEX_MAX_PER_PAGE = 100;
export const PUBMED_WIRE = { esearch: "esearch.fcgi", esummary: "esummary.fcgi" } as const;

export function setPubmedScenario(fake: FakeProviders, scenario: FakeScenario): void {
  fake.setScenario(PUBMED_WIRE.esearch, scenario);
  fake.setScenario(PUBMED_WIRE.esummary, scenario);
}

function papersOf(scenario: FakeScenario): readonly FakePaper[] {
  return (scenario.payload as readonly FakePaper[] | undefined) ?? DEFAULT_PAPERS;
}

const xml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

function atomFeed(papers: readonly FakePaper[]): string {
  const entries = papers.map((p) => {
    const id = p.arxivId ?? "0000.00000";
    const published = p.published ?? `${p.year ?? 2020}-01-01`;
    return `<entry>
    <id>http://arxiv.org/abs/${id}v2</id>
    <updated>${published}T00:00:00Z</updated>
    <published>${published}T00:00:00Z</published>
    <title>${xml(p.title)}</title>
    <summary>  ${xml(p.abstract ?? "")}
    </summary>
    ${p.authors.map((a) => `<author><name>${xml(a)}</name></author>`).join("\n    ")}
    ${p.doi ? `<arxiv:doi xmlns:arxiv="http://arxiv.org/schemas/atom">${xml(p.doi)}</arxiv:doi>` : ""}
    ${p.venue ? `<arxiv:journal_ref xmlns:arxiv="http://arxiv.org/schemas/atom">${xml(p.venue)}</arxiv:journal_ref>` : ""}
    <link href="http://arxiv.org/abs/${id}v2" rel="alternate" type="text/html"/>
    <link title="pdf" href="http://arxiv.org/pdf/${id}v2" rel="related" type="application/pdf"/>
    <arxiv:primary_category xmlns:arxiv="http://arxiv.org/schemas/atom" term="cs.CL" scheme="http://arxiv.org/schemas/atom"/>
  </entry>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <link href="http://arxiv.org/api/query" rel="self" type="application/atom+xml"/>
  <title type="html">ArXiv Query: fake</title>
  <id>http://arxiv.org/api/fake</id>
  <updated>2024-01-01T00:00:00-05:00</updated>
  <opensearch:totalResults xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">${papers.length}</opensearch:totalResults>
  ${entries.join("\n  ")}
</feed>`;
}

/** PubMed's "Family AB" author form. */
const pubmedName = (name: string) => {
  const parts = name.split(" ");
  const family = parts.pop() ?? name;
  return `${family} ${parts.map((p) => p[0]).join("")}`;
};

function esummary(papers: readonly FakePaper[], request: RecordedRequest): FakeResponse {
  const ids = (request.query.id ?? "").split(",");
  const result: Record<string, unknown> = { uids: ids };
  for (const p of papers) {
    if (p.pmid === undefined || !ids.includes(p.pmid)) continue;
    const date = p.published ?? `${p.year ?? 2020}-01-01`;
    result[p.pmid] = {
      uid: p.pmid,
      pubdate: String(p.year ?? date.slice(0, 4)),
      sortpubdate: `${date.replace(/-/g, "/")} 00:00`,
      source: p.venue ?? "J Fake",
      fulljournalname: p.venue ?? "Journal of Fakes",
      title: p.title,
      authors: p.authors.map((a) => ({ name: pubmedName(a), authtype: "Author" })),
      articleids: [
        { idtype: "pubmed", value: p.pmid },
        ...(p.doi ? [{ idtype: "doi", value: p.doi }] : []),
        ...(p.pmcid ? [{ idtype: "pmc", value: p.pmcid }] : []),
      ],
    };
  }
  return json({ header: { type: "esummary", version: "0.3" }, result });
}

function invertedIndex(text: string): Record<string, number[]> {
  const index: Record<string, number[]> = {};
  text.split(" ").forEach((word, position) => {
    index[word] = [...(index[word] ?? []), position];
  });
  return index;
}

export const PAPER_WIRES: Readonly<Record<string, FakeWire>> = {
  [PAPER_PREFIX.arxiv]: {
    method: "GET",
    path: "/api/query",
    credential: keyless,
    render: (scenario) => ({
      contentType: "application/atom+xml; charset=utf-8",
      body: typeof scenario.payload === "string" ? scenario.payload : atomFeed(papersOf(scenario)),
    }),
  },
  [PUBMED_WIRE.esearch]: {
    method: "GET",
    path: "/",
    credential: (request) => request.query.api_key,
    render: (scenario) => {
      const ids = papersOf(scenario).flatMap((p) => (p.pmid ? [p.pmid] : []));
      return json({
        header: { type: "esearch", version: "0.3" },
        esearchresult: { count: String(ids.length), retmax: String(ids.length), retstart: "0", idlist: ids },
      });
    },
  },
  [PUBMED_WIRE.esummary]: {
    method: "GET",
    path: "/",
    credential: (request) => request.query.api_key,
    render: (scenario, request) => esummary(papersOf(scenario), request),
  },
  [PAPER_PREFIX.semantic_scholar]: {
    method: "GET",
    path: "/graph/v1/paper/search",
    credential: header("x-api-key"),
    render: (scenario) => {
      const papers = papersOf(scenario);
      return json({
        total: papers.length,
        offset: 0,
        data: papers.map((p, i) => ({
          paperId: `s2-${i}`,
          url: `https://www.semanticscholar.org/paper/s2-${i}`,
          title: p.title,
          abstract: p.abstract ?? null,
          venue: p.venue ?? "",
          year: p.year ?? null,
          publicationDate: p.published ?? null,
          citationCount: p.citationCount ?? 0,
          isOpenAccess: p.openAccess ?? p.pdfUrl !== undefined,
          openAccessPdf: p.pdfUrl ? { url: p.pdfUrl, status: "GREEN" } : null,
          authors: p.authors.map((name, j) => ({ authorId: String(j), name })),
          externalIds: {
            ...(p.doi ? { DOI: p.doi } : {}),
            ...(p.arxivId ? { ArXiv: p.arxivId } : {}),
            ...(p.pmid ? { PubMed: p.pmid } : {}),
            CorpusId: i,
          },
        })),
      });
    },
  },
  [PAPER_PREFIX.openalex]: {
    method: "GET",
    path: "/works",
    credential: (request) => request.query.api_key,
    render: (scenario, request) => {
      // developers.openalex.org/guides/page-through-results: per_page is 1-100; errors are {error, message}.
      const perPage = Number(request.query.per_page ?? 25);
      if (!(perPage >= 1 && perPage <= OPENALEX_MAX_PER_PAGE)) {
        const message = `per_page is ${request.query.per_page}; it must be between 1 and ${OPENALEX_MAX_PER_PAGE}`;
        return { ...json({ error: "Invalid query parameters error.", message }), status: 400 };
      }
      const papers = papersOf(scenario);
      return json({
        meta: { count: papers.length, db_response_time_ms: 12, page: 1, per_page: perPage },
        results: papers.map((p, i) => {
          const doi = p.doi ?? (p.arxivId ? `10.48550/arXiv.${p.arxivId}` : undefined);
          return {
            id: `https://openalex.org/W${1000 + i}`,
            doi: doi ? `https://doi.org/${doi}` : null,
            title: p.title,
            display_name: p.title,
            publication_year: p.year ?? null,
            publication_date: p.published ?? null,
            authorships: p.authors.map((name) => ({
              author_position: "middle",
              author: { display_name: name },
            })),
            primary_location: {
              source: p.venue ? { display_name: p.venue } : null,
              landing_page_url: doi ? `https://doi.org/${doi}` : null,
              pdf_url: p.pdfUrl ?? null,
            },
            best_oa_location: p.pdfUrl ? { pdf_url: p.pdfUrl } : null,
            open_access: { is_oa: p.openAccess ?? p.pdfUrl !== undefined, oa_url: p.pdfUrl ?? null },
            cited_by_count: p.citationCount ?? 0,
            abstract_inverted_index: p.abstract ? invertedIndex(p.abstract) : null,
            ids: {
              openalex: `https://openalex.org/W${1000 + i}`,
              ...(p.pmid ? { pmid: `https://pubmed.ncbi.nlm.nih.gov/${p.pmid}` } : {}),
            },
          };
        }),
      });
    },
  },
};
