/**
 * A fetched body → FetchedDocument by content type: HTML → main article as Markdown, PDF → text with
 * page markers, Word and PowerPoint (DOCX, PPTX) → Markdown, text/plain, Markdown, JSON, XML and CSV
 * passed through; anything else (images, other archives, media) is refused as an unsupported content
 * type. A missing or generic type (octet-stream, zip) is sniffed from the bytes, then from the URL's
 * file extension.
 */

import { UnsupportedContent } from "@/lib/engine/fetch/errors";
import type { FetchedDocument } from "@/lib/engine/fetch/types";
import { DEFAULT_MAX_BODY_BYTES } from "@/lib/http/safe-fetch";
import { decodeText } from "./charset";
import { documentFromHtmlPage } from "./html-page";
import { documentFromPdf } from "./pdf";

type Kind = "html" | "pdf" | "office" | "text";

const TEXT_TYPES =
  /^(text\/|application\/(json|ld\+json|xml|atom\+xml|rss\+xml|javascript|x-ndjson|yaml|x-yaml|toml)$|[\w.+-]+\/[\w.-]+\+(json|xml)$)/;
/** Word and PowerPoint documents, templates and slideshows, macro-enabled or not. */
const OFFICE_TYPES =
  /^application\/vnd\.(openxmlformats-officedocument\.(wordprocessingml|presentationml)\.[\w.]+|ms-(word|powerpoint)\.[\w.]+\.macroenabled(template)?\.12)$/;
/** Types that say nothing about the content: the bytes (and the URL) decide. */
const GENERIC_TYPES = new Set([
  "",
  "application/octet-stream",
  "binary/octet-stream",
  "application/zip",
  "application/x-zip-compressed",
]);
const OFFICE_EXTENSION = /\.(docx|docm|dotx|pptx|pptm|ppsx|potx)$/i;
/** A ZIP local file header, or an OLE2 compound file (encrypted or legacy Office). */
const OFFICE_MAGIC = ["PK\x03\x04", "\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"];

export interface FetchedBody {
  body: Buffer;
  contentType: string;
  /** The URL the body came from (after redirects): base for relative links. */
  url: string;
  /** The decoded-size cap, also the cap on the parts a document's archive may inflate. */
  maxBytes?: number;
  /**
   * The step's signal: a PDF or a large HTML page still converting when it aborts is abandoned (its worker
   * terminated), a small HTML page stops at its next step.
   */
  signal?: AbortSignal;
}

export async function documentFromBody({
  body,
  contentType,
  url,
  maxBytes = DEFAULT_MAX_BODY_BYTES,
  signal,
}: FetchedBody): Promise<FetchedDocument> {
  const mime = contentType.split(";")[0]?.trim().toLowerCase() ?? "";
  const kind = kindOf(mime, body, url);
  if (kind === "pdf") return documentFromPdf(body, { signal });
  if (kind === "office") {
    // Loaded on the first Office document: the ZIP and XML readers cost a search-only server nothing.
    const { documentFromOffice } = await import("@/lib/engine/fetch/documents/office");
    return documentFromOffice({ body, mime, url, maxBytes });
  }
  const { text } = decodeText(body, contentType);
  if (kind === "html") {
    const document = await documentFromHtmlPage(text, url, signal);
    document.metadata.content_type = mime || "text/html";
    return document;
  }
  return { markdown: text.trim(), metadata: { content_type: mime || "text/plain" } };
}

function kindOf(mime: string, body: Buffer, url: string): Kind {
  if (mime === "text/html" || mime === "application/xhtml+xml") return "html";
  if (mime === "application/pdf") return "pdf";
  if (OFFICE_TYPES.test(mime)) return "office";
  if (TEXT_TYPES.test(mime)) return "text";
  if (GENERIC_TYPES.has(mime)) {
    const sniffed = sniff(body, url);
    if (sniffed !== undefined) return sniffed;
  }
  throw new UnsupportedContent(mime);
}

function sniff(body: Buffer, url: string): Kind | undefined {
  const bytes = body.subarray(0, 512);
  const head = bytes.toString("latin1");
  if (head.startsWith("%PDF-")) return "pdf";
  if (OFFICE_MAGIC.some((magic) => head.startsWith(magic))) return "office";
  // A damaged document is reported as such rather than as an unknown binary.
  if (OFFICE_EXTENSION.test(pathOf(url))) return "office";
  if (/^\s*(<!doctype html|<html|<head|<body)/i.test(head)) return "html";
  // Text has no NUL bytes and no control characters other than tab, newlines, form feed and escape.
  return bytes.some((byte) => byte < 0x09 || (byte > 0x0d && byte < 0x1b)) ? undefined : "text";
}

function pathOf(url: string): string {
  return URL.canParse(url) ? new URL(url).pathname : "";
}
