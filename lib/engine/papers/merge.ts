/**
 * Deduplication across providers: two listings are one paper when they share a DOI, else an arXiv id,
 * else the normalised title with the first author's family name — unless their identifiers disagree
 * (two different DOIs, or two different arXiv ids, are never merged). Keys are applied in that order,
 * so a record carrying both a DOI and an arXiv id (Semantic Scholar, OpenAlex) joins a journal listing
 * and a preprint listing into one paper.
 *
 * The merged record prefers the published version: listings with a DOI first, then by rank. Abstract:
 * the longest; citation count: the highest; URL: the DOI resolver, else the arXiv abstract page; PDF:
 * the arXiv PDF, else the first open PDF link. Score: Reciprocal Rank Fusion over providers, k = 60.
 */
import { RRF_K } from "@/lib/engine/search/fusion";
import { compareStrings } from "@/lib/engine/search/text";
import type { ProviderId } from "@/lib/engine/shared/types";
import { normalizeArxivId, normalizeDoi, titleAuthorKey } from "./identifiers";
import { paperPdfUrl } from "./pdf";
import type { PaperRecord, RawPaper } from "./types";

export interface ProviderPapers {
  provider: ProviderId;
  papers: readonly RawPaper[];
}

interface Listing {
  provider: ProviderId;
  rank: number;
  paper: RawPaper;
  doi?: string;
  arxivId?: string;
  titleKey?: string;
}

interface Group {
  listings: Listing[];
  dois: Set<string>;
  arxivIds: Set<string>;
}

export function mergePapers(lists: readonly ProviderPapers[]): PaperRecord[] {
  const listings = lists.flatMap(({ provider, papers }) =>
    papers.map((paper, index) => listingOf(provider, index + 1, paper)),
  );
  const groupOf = new Map<Listing, Group>();
  for (const listing of listings) {
    groupOf.set(listing, {
      listings: [listing],
      dois: new Set(listing.doi ? [listing.doi] : []),
      arxivIds: new Set(listing.arxivId ? [listing.arxivId] : []),
    });
  }

  for (const keyOf of [(l: Listing) => l.doi, (l: Listing) => l.arxivId, (l: Listing) => l.titleKey]) {
    const firstByKey = new Map<string, Listing>();
    for (const listing of listings) {
      const key = keyOf(listing);
      if (key === undefined) continue;
      const first = firstByKey.get(key);
      if (first === undefined) firstByKey.set(key, listing);
      else join(groupOf, first, listing);
    }
  }
  return [...new Set(groupOf.values())].map(toRecord);
}

function listingOf(provider: ProviderId, rank: number, paper: RawPaper): Listing {
  const fromDoi = normalizeDoi(paper.doi);
  const arxivId = normalizeArxivId(paper.arxivId) ?? fromDoi.arxivId;
  const listing: Listing = { provider, rank, paper };
  if (fromDoi.doi) listing.doi = fromDoi.doi;
  if (arxivId) listing.arxivId = arxivId;
  const titleKey = titleAuthorKey(paper.title, paper.authors);
  if (titleKey) listing.titleKey = titleKey;
  return listing;
}

/** Merges b's group into a's unless their DOIs or arXiv ids conflict. */
function join(groupOf: Map<Listing, Group>, a: Listing, b: Listing): void {
  const target = groupOf.get(a);
  const source = groupOf.get(b);
  if (target === undefined || source === undefined || target === source) return;
  if (conflicts(target.dois, source.dois) || conflicts(target.arxivIds, source.arxivIds)) return;
  for (const listing of source.listings) {
    target.listings.push(listing);
    groupOf.set(listing, target);
  }
  for (const doi of source.dois) target.dois.add(doi);
  for (const id of source.arxivIds) target.arxivIds.add(id);
}

function conflicts(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  return a.size > 0 && b.size > 0 && ![...a].some((value) => b.has(value));
}

function toRecord(group: Group): PaperRecord {
  // Published (DOI-bearing) listings first, then by rank: their title, venue and year win.
  const ordered = [...group.listings].sort((a, b) => Number(!a.doi) - Number(!b.doi) || a.rank - b.rank);
  const papers = ordered.map((listing) => listing.paper);
  const first = <T>(pick: (paper: RawPaper) => T | undefined): T | undefined => {
    for (const paper of papers) {
      const value = pick(paper);
      if (value !== undefined && value !== "") return value;
    }
    return undefined;
  };
  const doi = ordered.find((l) => l.doi)?.doi ?? null;
  const arxivId = ordered.find((l) => l.arxivId)?.arxivId ?? null;
  const pdfUrl = paperPdfUrl({ arxiv_id: arxivId, pdf_url: first((p) => p.pdfUrl) ?? null });
  const dated = papers.find((p) => p.year !== undefined);
  const citationCounts = papers.flatMap((p) => (p.citationCount === undefined ? [] : [p.citationCount]));
  const abstracts = papers.flatMap((p) => (p.abstract ? [p.abstract] : []));
  const sources = bestRanks(group.listings);
  return {
    title: first((p) => p.title) ?? "",
    authors: first((p) => (p.authors.length > 0 ? p.authors : undefined)) ?? [],
    year: dated?.year ?? null,
    published: dated?.published ?? null,
    venue:
      first((p) => (p.venue && !/^arxiv\b/i.test(p.venue) ? p.venue : undefined)) ??
      first((p) => p.venue) ??
      null,
    abstract: abstracts.reduce<string | null>(
      (best, a) => (best === null || a.length > best.length ? a : best),
      null,
    ),
    doi,
    arxiv_id: arxivId,
    pmid: first((p) => p.pmid) ?? null,
    url: doi
      ? `https://doi.org/${doi}`
      : arxivId
        ? `https://arxiv.org/abs/${arxivId}`
        : (first((p) => p.url) ?? null),
    pdf_url: pdfUrl,
    citation_count: citationCounts.length > 0 ? Math.max(...citationCounts) : null,
    open_access: pdfUrl !== null || papers.some((p) => p.openAccess === true),
    score: sources.reduce((sum, source) => sum + 1 / (RRF_K + source.rank), 0),
    sources,
  };
}

/** One entry per provider with its best rank, best first. */
function bestRanks(listings: readonly Listing[]): PaperRecord["sources"] {
  const byProvider = new Map<ProviderId, number>();
  for (const { provider, rank } of listings) {
    byProvider.set(provider, Math.min(rank, byProvider.get(provider) ?? rank));
  }
  return [...byProvider]
    .map(([provider, rank]) => ({ provider, rank }))
    .sort((a, b) => a.rank - b.rank || compareStrings(a.provider, b.provider));
}
