/**
 * Semantic Scholar Academic Graph API, paper relevance search.
 * Docs: https://api.semanticscholar.org/api-docs/graph#tag/Paper-Data/operation/get_graph_paper_relevance_search (graph v1)
 * Wire: GET {base}/graph/v1/paper/search?query=&limit=&fields=…[&year=2019-2023][&openAccessPdf], optional
 *   `x-api-key: <key>` -> {total, offset, next?, data?: [{paperId, title, abstract, venue, year,
 *   publicationDate, citationCount, isOpenAccess, openAccessPdf: {url, status} | null,
 *   authors: [{authorId, name}], externalIds: {DOI?, ArXiv?, PubMed?}, url}]}.
 * Relevance only (no sort parameter): date order is applied by the engine. Keyless calls share a
 * global rate limit; SEMANTIC_SCHOLAR_API_KEY gets a dedicated one.
 */
import { z } from "zod";
import type { PaperProvider, RawPaper } from "@/lib/engine/papers/types";
import { buildUrl, parseResponse, requestJson } from "@/lib/http/provider-client";
import { listedPrice } from "@/lib/providers/prices";
import { cleanPapers, yearRange } from "./paper-kit";

const FIELDS =
  "title,abstract,venue,year,publicationDate,citationCount,isOpenAccess,openAccessPdf,authors,externalIds,url";
const MAX_LIMIT = 100;

const responseSchema = z.object({
  data: z
    .array(
      z.object({
        title: z.string().nullish(),
        abstract: z.string().nullish(),
        venue: z.string().nullish(),
        year: z.number().int().nullish(),
        publicationDate: z.string().nullish(),
        citationCount: z.number().int().nullish(),
        isOpenAccess: z.boolean().nullish(),
        openAccessPdf: z.object({ url: z.string().nullish() }).nullish(),
        authors: z.array(z.object({ name: z.string().nullish() })).nullish(),
        externalIds: z
          .object({ DOI: z.string().nullish(), ArXiv: z.string().nullish(), PubMed: z.string().nullish() })
          .nullish(),
        url: z.string().nullish(),
      }),
    )
    .nullish(),
});

export const semanticScholar: PaperProvider = {
  id: "semantic_scholar",
  displayName: "Semantic Scholar",
  keyEnv: ["SEMANTIC_SCHOLAR_API_KEY"],
  keyOptional: true,
  baseUrlEnv: "SEMANTIC_SCHOLAR_BASE_URL",
  defaultBaseUrl: "https://api.semanticscholar.org",
  docsUrl: "https://api.semanticscholar.org/api-docs/graph",
  apiVersion: "graph v1",
  price: listedPrice("semantic_scholar"),
  defaultTimeoutMs: 15_000,

  async search(call) {
    const { options } = call;
    const response = await requestJson(
      buildUrl(call.baseUrl, "/graph/v1/paper/search", {
        query: call.query,
        limit: Math.min(options.maxResults, MAX_LIMIT),
        fields: FIELDS,
        year: yearRange(options),
        // A present-but-empty openAccessPdf parameter keeps only papers with a public PDF.
        openAccessPdf: options.openAccessOnly ? "" : undefined,
      }),
      { headers: call.apiKey ? { "x-api-key": call.apiKey } : {}, signal: call.signal },
    );
    const data = parseResponse(responseSchema, response.json).data ?? [];
    const papers = data.map((item): RawPaper => {
      const paper: RawPaper = {
        title: item.title ?? "",
        authors: (item.authors ?? []).flatMap((author) => (author.name ? [author.name] : [])),
      };
      if (item.abstract) paper.abstract = item.abstract;
      if (item.venue) paper.venue = item.venue;
      if (item.year != null) paper.year = item.year;
      if (item.publicationDate) paper.published = item.publicationDate;
      if (item.citationCount != null) paper.citationCount = item.citationCount;
      if (item.isOpenAccess != null) paper.openAccess = item.isOpenAccess;
      if (item.openAccessPdf?.url) paper.pdfUrl = item.openAccessPdf.url;
      if (item.externalIds?.DOI) paper.doi = item.externalIds.DOI;
      if (item.externalIds?.ArXiv) paper.arxivId = item.externalIds.ArXiv;
      if (item.externalIds?.PubMed) paper.pmid = item.externalIds.PubMed;
      if (item.url) paper.url = item.url;
      return paper;
    });
    return { papers: cleanPapers(papers, options), httpStatus: response.status, bytes: response.bytes };
  },
};
