/**
 * arXiv API (Atom feed).
 * Docs: https://info.arxiv.org/help/api/user-manual.html (API v1, Atom 1.0)
 * Wire: GET {base}/api/query?search_query=&start=0&max_results=&sortBy=relevance|submittedDate&sortOrder=descending
 *   -> Atom <feed> with <entry>: <id>http://arxiv.org/abs/ID vN</id>, <title>, <summary>, <published>,
 *      <author><name>, <link title="pdf" href>, <arxiv:doi>, <arxiv:journal_ref>; errors come back as an
 *      entry whose <id> is http://arxiv.org/api/errors#….
 * Query: every word as `all:word`, ANDed; year range as `submittedDate:[YYYY01010000 TO YYYY12312359]`.
 * Everything on arXiv is open access. Keyless; the terms ask for at most one request every 3 seconds.
 */
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { z } from "zod";
import { normalizeArxivId } from "@/lib/engine/papers/identifiers";
import type { PaperProvider, PaperSearchOptions, RawPaper } from "@/lib/engine/papers/types";
import { ProviderError } from "@/lib/engine/shared/errors";
import { buildUrl, parseResponse, request } from "@/lib/http/provider-client";
import { listedPrice } from "@/lib/providers/prices";
import { cleanPapers, yearOf } from "./paper-kit";

const text = z
  .union([z.string(), z.object({ "#text": z.string() })])
  .transform((v) => (typeof v === "string" ? v : v["#text"]));

const feedSchema = z.object({
  feed: z.object({
    entry: z
      .array(
        z.object({
          id: text,
          title: text.nullish(),
          summary: text.nullish(),
          published: text.nullish(),
          author: z.array(z.object({ name: text })).nullish(),
          link: z.array(z.object({ "@_href": z.string(), "@_title": z.string().nullish() })).nullish(),
          "arxiv:doi": text.nullish(),
          "arxiv:journal_ref": text.nullish(),
        }),
      )
      .nullish(),
  }),
});

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  parseTagValue: false,
  parseAttributeValue: false,
  isArray: (name) => name === "entry" || name === "author" || name === "link",
});

export const arxiv: PaperProvider = {
  id: "arxiv",
  displayName: "arXiv",
  keyEnv: [],
  baseUrlEnv: "ARXIV_BASE_URL",
  // The same base URL as arXiv fetch (one ARXIV_BASE_URL serves both).
  defaultBaseUrl: "https://export.arxiv.org",
  docsUrl: "https://info.arxiv.org/help/api/user-manual.html",
  apiVersion: "v1 (Atom 1.0)",
  price: listedPrice("arxiv"),
  defaultTimeoutMs: 15_000,

  async search(call) {
    const url = buildUrl(call.baseUrl, "/api/query", {
      search_query: searchQuery(call.query, call.options),
      start: 0,
      max_results: call.options.maxResults,
      sortBy: call.options.sort === "date" ? "submittedDate" : "relevance",
      sortOrder: "descending",
    });
    const response = await request(url, {
      headers: { accept: "application/atom+xml" },
      signal: call.signal,
    });
    const papers = parseFeed(response.body).map(toPaper);
    return { papers: cleanPapers(papers, call.options), httpStatus: response.status, bytes: response.bytes };
  },
};

function searchQuery(query: string, options: PaperSearchOptions): string {
  const words = query
    .split(/\s+/)
    .filter(Boolean)
    .map((word) => `all:${word.replace(/[:"()]/g, "")}`);
  const clauses = [words.join(" AND ")];
  if (options.yearFrom !== undefined || options.yearTo !== undefined) {
    clauses.push(`submittedDate:[${options.yearFrom ?? 1991}01010000 TO ${options.yearTo ?? 9999}12312359]`);
  }
  return clauses.join(" AND ");
}

type Entry = NonNullable<z.output<typeof feedSchema>["feed"]["entry"]>[number];

function parseFeed(body: string): Entry[] {
  if (XMLValidator.validate(body) !== true)
    throw new ProviderError("invalid_response", "arXiv returned malformed XML");
  const entries = parseResponse(feedSchema, parser.parse(body)).feed.entry ?? [];
  const error = entries.find((entry) => entry.id.includes("/api/errors"));
  if (error)
    throw new ProviderError("http_error", `arXiv rejected the query: ${error.summary ?? "unknown error"}`);
  return entries;
}

function toPaper(entry: Entry): RawPaper {
  const arxivId = normalizeArxivId(entry.id);
  const pdf = entry.link?.find((link) => link["@_title"] === "pdf")?.["@_href"];
  const paper: RawPaper = {
    title: entry.title ?? "",
    authors: (entry.author ?? []).map((author) => author.name),
    venue: entry["arxiv:journal_ref"]?.trim() || "arXiv",
    openAccess: true,
  };
  if (entry.summary) paper.abstract = entry.summary;
  const year = yearOf(entry.published);
  if (year !== undefined) paper.year = year;
  if (entry.published) paper.published = entry.published.slice(0, 10);
  if (arxivId) {
    paper.arxivId = arxivId;
    paper.url = `https://arxiv.org/abs/${arxivId}`;
  }
  if (pdf) paper.pdfUrl = pdf;
  if (entry["arxiv:doi"]) paper.doi = entry["arxiv:doi"];
  return paper;
}
