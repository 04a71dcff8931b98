/**
 * arXiv domain route: an abstract page (arxiv.org/abs/<id>) becomes the paper's abstract and metadata
 * from the arXiv API, keyless.
 * Docs: https://info.arxiv.org/help/api/user-manual.html (query interface, Atom 1.0 response)
 * Wire: GET {base}/api/query?id_list=<id> -> Atom feed; entry: id, title, summary, published, updated,
 *   author[].name, link[@title="pdf"]/@href, arxiv:primary_category/@term, category[]/@term, arxiv:doi.
 *   Etiquette: at most one request every 3 seconds. Errors (a malformed or unknown id) come as a feed whose
 *   one entry has the id http://arxiv.org/api/errors#<reason>, the title "Error" and the message as its
 *   summary (user manual §3.4 "Errors").
 */
import { XMLParser } from "fast-xml-parser";
import { z } from "zod";
import type { FetchProvider } from "@/lib/engine/fetch/types";
import { ProviderError } from "@/lib/engine/shared/errors";
import { buildUrl, parseResponse, request, userPathSegments } from "@/lib/http/provider-client";
import { listedPrice } from "@/lib/providers/prices";
import { domainRoute, markdownDocument, withFacts } from "./adapter-kit";

const ABSTRACT = /^\/abs\/([\w.\-/]+?)\/?$/;
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  isArray: (name) => ["author", "link", "category"].includes(name),
});

const text = z
  .union([z.string(), z.number()])
  .transform((value) => String(value).replace(/\s+/g, " ").trim());
const entrySchema = z.object({
  id: text,
  title: text,
  summary: text,
  published: text.optional(),
  updated: text.optional(),
  author: z.array(z.object({ name: text })).default([]),
  link: z.array(z.object({ "@_href": z.string(), "@_title": z.string().optional() })).default([]),
  category: z.array(z.object({ "@_term": z.string() })).default([]),
  "arxiv:doi": text.optional(),
});
const feedSchema = z.object({ feed: z.object({ entry: z.unknown().optional() }) });
/** The id of the entry arXiv answers an error with, instead of a paper. */
const ERROR_ENTRY_ID = /^https?:\/\/arxiv\.org\/api\/errors/;

export const arxiv: FetchProvider = {
  id: "arxiv",
  displayName: "arXiv",
  keyEnv: [],
  baseUrlEnv: "ARXIV_BASE_URL",
  defaultBaseUrl: "https://export.arxiv.org",
  docsUrl: "https://info.arxiv.org/help/api/user-manual.html",
  apiVersion: "query API 1.0 (Atom)",
  price: listedPrice("arxiv"),
  defaultTimeoutMs: 15_000,

  // "Attention Is All You Need": a stable, much-read abstract.
  ...domainRoute("arXiv", paperId, "https://arxiv.org/abs/1706.03762"),

  async fetch(call) {
    const id = paperId(call.url);
    if (id === undefined) throw new Error("not an arXiv abstract URL");
    const response = await request(buildUrl(call.baseUrl, "/api/query", { id_list: id }), {
      headers: { accept: "application/atom+xml" },
      signal: call.signal,
    });
    const { feed } = parseResponse(feedSchema, parser.parse(response.body));
    const raw = Array.isArray(feed.entry) ? feed.entry[0] : feed.entry;
    if (raw === undefined) throw new ProviderError("http_error", `arXiv has no paper ${id}`, 404);
    const entry = parseResponse(entrySchema, raw);
    if (ERROR_ENTRY_ID.test(entry.id)) {
      throw new ProviderError("http_error", `arXiv refused ${id}: ${entry.summary}`);
    }
    const pdf = entry.link.find((link) => link["@_title"] === "pdf")?.["@_href"];
    const authors = entry.author.map((author) => author.name);
    const facts = [
      `**Authors:** ${authors.join(", ") || "unknown"}`,
      entry.published ? `**Published:** ${entry.published.slice(0, 10)}` : undefined,
      entry.category.length > 0
        ? `**Categories:** ${entry.category.map((c) => c["@_term"]).join(", ")}`
        : undefined,
      entry["arxiv:doi"] ? `**DOI:** ${entry["arxiv:doi"]}` : undefined,
      pdf ? `**PDF:** ${pdf}` : undefined,
    ].filter((line): line is string => line !== undefined);
    return markdownDocument(
      {
        markdown: [`# ${entry.title}`, facts.join("  \n"), "## Abstract", entry.summary].join("\n\n"),
        title: entry.title,
        finalUrl: `https://arxiv.org/abs/${id}`,
        metadata: withFacts({ byline: authors.join(", "), published: entry.published, site_name: "arXiv" }),
      },
      call.url.toString(),
      response,
      arxiv.displayName,
    );
  },
};

/** The paper id of an abstract URL; InvalidPath for an arxiv.org path with a bad segment. */
function paperId(url: URL): string | undefined {
  if (!/(^|\.)arxiv\.org$/.test(url.hostname)) return undefined;
  userPathSegments(url.pathname);
  return ABSTRACT.exec(url.pathname)?.[1];
}
