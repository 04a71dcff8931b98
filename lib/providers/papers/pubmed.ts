/**
 * PubMed via NCBI E-utilities: esearch for the PMIDs, then esummary for their document summaries.
 * Docs: https://www.ncbi.nlm.nih.gov/books/NBK25499/ (E-utilities, eutils 2.0)
 * Wire: GET {base}/esearch.fcgi?db=pubmed&term=&retmode=json&retmax=&sort=relevance|pub_date
 *         [&datetype=pdat&mindate=YYYY&maxdate=YYYY][&api_key=][&tool=searchmux&email=]
 *   -> {esearchresult: {count, idlist: [pmid], ERROR?}}
 *       GET {base}/esummary.fcgi?db=pubmed&id=1,2,…&retmode=json
 *   -> {result: {uids: [pmid], <pmid>: {title, authors: [{name: "Family AB"}], pubdate, sortpubdate,
 *       fulljournalname, source, articleids: [{idtype: "doi"|"pmc"|…, value}]}}}.
 * Open access only adds `AND free full text[sb]` to the term. esummary has no abstracts.
 * Keyless: 3 requests/second, 10 with NCBI_API_KEY.
 */
import { z } from "zod";
import type { PaperProvider, RawPaper } from "@/lib/engine/papers/types";
import { ProviderError } from "@/lib/engine/shared/errors";
import { buildUrl, parseResponse, requestJson } from "@/lib/http/provider-client";
import { listedPrice } from "@/lib/providers/prices";
import { cleanPapers, yearOf } from "./paper-kit";

const TOOL = "searchmux";
const EARLIEST_YEAR = 1800;
const LATEST_YEAR = 3000;

const searchSchema = z.object({
  esearchresult: z.object({ idlist: z.array(z.string()).nullish(), ERROR: z.string().nullish() }),
});

const summarySchema = z.object({
  title: z.string().nullish(),
  authors: z.array(z.object({ name: z.string() })).nullish(),
  pubdate: z.string().nullish(),
  sortpubdate: z.string().nullish(),
  fulljournalname: z.string().nullish(),
  source: z.string().nullish(),
  articleids: z.array(z.object({ idtype: z.string(), value: z.string() })).nullish(),
});
const summariesSchema = z.object({
  result: z.object({ uids: z.array(z.string()) }).catchall(z.unknown()),
});

export const pubmed: PaperProvider = {
  id: "pubmed",
  displayName: "PubMed",
  keyEnv: ["NCBI_API_KEY"],
  keyOptional: true,
  baseUrlEnv: "PUBMED_BASE_URL",
  defaultBaseUrl: "https://eutils.ncbi.nlm.nih.gov/entrez/eutils",
  docsUrl: "https://www.ncbi.nlm.nih.gov/books/NBK25499/",
  apiVersion: "E-utilities (eutils 2.0)",
  price: listedPrice("pubmed"),
  defaultTimeoutMs: 15_000,

  async search(call) {
    const { options } = call;
    const common = { db: "pubmed", retmode: "json", api_key: call.apiKey, tool: TOOL, email: call.mailto };
    const dated = options.yearFrom !== undefined || options.yearTo !== undefined;
    const found = await requestJson(
      buildUrl(call.baseUrl, "/esearch.fcgi", {
        ...common,
        term: options.openAccessOnly ? `(${call.query}) AND free full text[sb]` : call.query,
        retmax: options.maxResults,
        sort: options.sort === "date" ? "pub_date" : "relevance",
        datetype: dated ? "pdat" : undefined,
        mindate: dated ? (options.yearFrom ?? EARLIEST_YEAR) : undefined,
        maxdate: dated ? (options.yearTo ?? LATEST_YEAR) : undefined,
      }),
      { signal: call.signal },
    );
    const search = parseResponse(searchSchema, found.json).esearchresult;
    if (search.ERROR) throw new ProviderError("http_error", `PubMed rejected the query: ${search.ERROR}`);
    const ids = search.idlist ?? [];
    if (ids.length === 0) return { papers: [], httpStatus: found.status, bytes: found.bytes };

    const summaries = await requestJson(
      buildUrl(call.baseUrl, "/esummary.fcgi", { ...common, id: ids.join(",") }),
      {
        signal: call.signal,
      },
    );
    const result = parseResponse(summariesSchema, summaries.json).result;
    const papers = result.uids.flatMap((pmid) => {
      const summary = summarySchema.safeParse(result[pmid]);
      return summary.success ? [toPaper(pmid, summary.data)] : [];
    });
    return {
      papers: cleanPapers(papers, options),
      httpStatus: summaries.status,
      bytes: found.bytes + summaries.bytes,
    };
  },
};

function toPaper(pmid: string, summary: z.output<typeof summarySchema>): RawPaper {
  const idOf = (type: string) => summary.articleids?.find((id) => id.idtype === type)?.value;
  const pmc = idOf("pmc");
  const paper: RawPaper = {
    title: summary.title ?? "",
    authors: (summary.authors ?? []).map((author) => displayName(author.name)),
    pmid,
    url: `https://pubmed.ncbi.nlm.nih.gov/${pmid}/`,
    openAccess: pmc !== undefined,
  };
  const venue = summary.fulljournalname || summary.source;
  if (venue) paper.venue = venue;
  const year = yearOf(summary.sortpubdate ?? summary.pubdate);
  if (year !== undefined) paper.year = year;
  const published = summary.sortpubdate?.slice(0, 10).replace(/\//g, "-");
  if (published) paper.published = published;
  const doi = idOf("doi");
  if (doi) paper.doi = doi;
  if (pmc) paper.pdfUrl = `https://pmc.ncbi.nlm.nih.gov/articles/${pmc}/pdf/`;
  return paper;
}

/** PubMed lists authors as "Family AB"; other providers as "Given Family". */
function displayName(name: string): string {
  const match = /^(.+?)\s+([A-Z]{1,4})$/.exec(name.trim());
  return match?.[1] && match[2] ? `${match[2]} ${match[1]}` : name;
}
