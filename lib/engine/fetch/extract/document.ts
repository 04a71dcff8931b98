/**
 * A fetched body → FetchedDocument by content type: HTML → main article as Markdown, PDF → text,
 * text/plain, Markdown, JSON, XML and CSV passed through; anything else (images, archives, media)
 * is refused as an unsupported content type. A missing or generic type is sniffed from the bytes.
 */
import { ProviderError } from "@/lib/engine/shared/errors";
import type { FetchedDocument } from "../types";
import { decodeText } from "./charset";
import { documentFromHtml } from "./html";
import { documentFromPdf } from "./pdf";

/** Thrown for bodies that are not text, HTML or PDF; the engine reports "unsupported_content_type". */
export class UnsupportedContent extends ProviderError {
  constructor(readonly contentType: string) {
    super("invalid_response", `unsupported content type: ${contentType || "unknown binary"}`);
    this.name = "UnsupportedContent";
  }
}

type Kind = "html" | "pdf" | "text";

const TEXT_TYPES =
  /^(text\/|application\/(json|ld\+json|xml|atom\+xml|rss\+xml|javascript|x-ndjson|yaml|x-yaml|toml)$|[\w.+-]+\/[\w.-]+\+(json|xml)$)/;

export interface FetchedBody {
  body: Buffer;
  contentType: string;
  /** The URL the body came from (after redirects): base for relative links. */
  url: string;
}

export async function documentFromBody({ body, contentType, url }: FetchedBody): Promise<FetchedDocument> {
  const mime = contentType.split(";")[0]?.trim().toLowerCase() ?? "";
  const kind = kindOf(mime, body);
  if (kind === "pdf") return documentFromPdf(body);
  const { text } = decodeText(body, contentType);
  if (kind === "html") {
    const document = documentFromHtml(text, url);
    document.metadata.content_type = mime || "text/html";
    return document;
  }
  return { markdown: text.trim(), metadata: { content_type: mime || "text/plain" } };
}

function kindOf(mime: string, body: Buffer): Kind {
  if (mime === "text/html" || mime === "application/xhtml+xml") return "html";
  if (mime === "application/pdf") return "pdf";
  if (TEXT_TYPES.test(mime)) return "text";
  if (mime === "" || mime === "application/octet-stream" || mime === "binary/octet-stream") {
    const sniffed = sniff(body);
    if (sniffed !== undefined) return sniffed;
  }
  throw new UnsupportedContent(mime);
}

function sniff(body: Buffer): Kind | undefined {
  const bytes = body.subarray(0, 512);
  const head = bytes.toString("latin1");
  if (head.startsWith("%PDF-")) return "pdf";
  if (/^\s*(<!doctype html|<html|<head|<body)/i.test(head)) return "html";
  // Text has no NUL bytes and no control characters other than tab, newlines, form feed and escape.
  return bytes.some((byte) => byte < 0x09 || (byte > 0x0d && byte < 0x1b)) ? undefined : "text";
}
