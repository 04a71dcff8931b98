/**
 * OpenAlex works search.
 * Docs: https://docs.openalex.org/api-entities/works/search-works (REST, unversioned)
 * Wire: GET {base}/works?search=&per_page=&filter=publication_year:2019-2023,is_oa:true
 *         &sort=publication_date:desc[&mailto=][&api_key=]
 *   -> {meta: {count}, results: [{id, doi: "https://doi.org/…", title, publication_year, publication_date,
 *       authorships: [{author: {display_name}}], primary_location: {source: {display_name}, landing_page_url,
 *       pdf_url}, best_oa_location, open_access: {is_oa, oa_url}, cited_by_count,
 *       abstract_inverted_index: {word: [positions]}, ids: {pmid: "https://pubmed.ncbi.nlm.nih.gov/…"}}]}.
 * Since 2026-02-13 OpenAlex wants a (free) key, sent as `api_key`: with one a day holds $1 of usage (1,000
 * searches); without one, $0.01-0.10 (about ten searches), so the key stays optional (OPENALEX_API_KEY) and a
 * keyless operator still gets a few calls a day. `mailto` (OPENALEX_MAILTO) is the older polite-pool address.
 * Conformance record: docs/providers/papers/openalex.md.
 * arXiv preprints carry arXiv's DataCite DOI (10.48550/arXiv.…), which dedup reads as an arXiv id.
 */
import { z } from "zod";
import type { PaperProvider, RawPaper } from "@/lib/engine/papers/types";
import { buildUrl, parseResponse, requestJson } from "@/lib/http/provider-client";
import { listedPrice } from "@/lib/providers/prices";
import { cleanPapers, yearRange } from "./paper-kit";

/** developers.openalex.org/guides/page-through-results: per_page is 1-100 (a larger one is a 400). */
const MAX_PER_PAGE = 100;

const location = z
  .object({
    source: z.object({ display_name: z.string().nullish() }).nullish(),
    landing_page_url: z.string().nullish(),
    pdf_url: z.string().nullish(),
  })
  .nullish();

const responseSchema = z.object({
  results: z.array(
    z.object({
      id: z.string().nullish(),
      doi: z.string().nullish(),
      title: z.string().nullish(),
      display_name: z.string().nullish(),
      publication_year: z.number().int().nullish(),
      publication_date: z.string().nullish(),
      authorships: z.array(z.object({ author: z.object({ display_name: z.string().nullish() }) })).nullish(),
      primary_location: location,
      best_oa_location: location,
      open_access: z.object({ is_oa: z.boolean().nullish() }).nullish(),
      cited_by_count: z.number().int().nullish(),
      abstract_inverted_index: z.record(z.string(), z.array(z.number().int())).nullish(),
      ids: z.object({ pmid: z.string().nullish() }).nullish(),
    }),
  ),
});

export const openalex: PaperProvider = {
  id: "openalex",
  displayName: "OpenAlex",
  keyEnv: ["OPENALEX_API_KEY"],
  keyOptional: true,
  baseUrlEnv: "OPENALEX_BASE_URL",
  defaultBaseUrl: "https://api.openalex.org",
  docsUrl: "https://docs.openalex.org/api-entities/works/search-works",
  apiVersion: "2025 REST (unversioned)",
  price: listedPrice("openalex"),
  defaultTimeoutMs: 15_000,

  async search(call) {
    const { options } = call;
    const years = yearRange(options);
    const filters = [
      years ? `publication_year:${years}` : undefined,
      options.openAccessOnly ? "is_oa:true" : undefined,
    ];
    const response = await requestJson(
      buildUrl(call.baseUrl, "/works", {
        search: call.query,
        per_page: Math.min(options.maxResults, MAX_PER_PAGE),
        filter: filters.filter(Boolean).join(",") || undefined,
        sort: options.sort === "date" ? "publication_date:desc" : undefined,
        mailto: call.mailto,
        api_key: call.apiKey,
      }),
      { signal: call.signal },
    );
    const papers = parseResponse(responseSchema, response.json).results.map((work): RawPaper => {
      const paper: RawPaper = {
        title: work.title ?? work.display_name ?? "",
        authors: (work.authorships ?? []).flatMap((a) =>
          a.author.display_name ? [a.author.display_name] : [],
        ),
      };
      const abstract = work.abstract_inverted_index ? invertedAbstract(work.abstract_inverted_index) : "";
      if (abstract) paper.abstract = abstract;
      const venue = work.primary_location?.source?.display_name;
      if (venue) paper.venue = venue;
      if (work.publication_year != null) paper.year = work.publication_year;
      if (work.publication_date) paper.published = work.publication_date;
      if (work.cited_by_count != null) paper.citationCount = work.cited_by_count;
      if (work.open_access?.is_oa != null) paper.openAccess = work.open_access.is_oa;
      const pdf = work.best_oa_location?.pdf_url ?? work.primary_location?.pdf_url;
      if (pdf) paper.pdfUrl = pdf;
      if (work.doi) paper.doi = work.doi;
      const pmid = work.ids?.pmid
        ?.replace(/^https?:\/\/pubmed\.ncbi\.nlm\.nih\.gov\//, "")
        .replace(/\/$/, "");
      if (pmid) paper.pmid = pmid;
      const url = work.primary_location?.landing_page_url ?? work.id;
      if (url) paper.url = url;
      return paper;
    });
    return { papers: cleanPapers(papers, options), httpStatus: response.status, bytes: response.bytes };
  },
};

/** OpenAlex ships abstracts as word → positions; the text is the words laid out by position. */
function invertedAbstract(index: Readonly<Record<string, readonly number[]>>): string {
  const words: string[] = [];
  for (const [word, positions] of Object.entries(index)) {
    for (const position of positions) words[position] = word;
  }
  return words.filter((word) => word !== undefined).join(" ");
}
