/**
 * PDF bytes → text per page (unpdf, a serverless pdf.js build), page count and title in metadata.
 * Each page starts with a `<!-- page N -->` line (invisible when the Markdown is rendered, kept in the
 * text format), so an agent can cite pages and a truncated document says where it stopped. A PDF
 * without any text (a scan) yields no content at all, so the content checks fail it over.
 */
import { extractText, getDocumentProxy, getMeta } from "unpdf";
import type { FetchedDocument } from "../types";

export async function documentFromPdf(body: Buffer): Promise<FetchedDocument> {
  // pdf.js takes ownership of (and may detach) the buffer it is given, so it gets a copy.
  const pdf = await getDocumentProxy(new Uint8Array(body));
  try {
    const { totalPages, text } = await extractText(pdf, { mergePages: false });
    const { info } = await getMeta(pdf);
    const title = typeof info.Title === "string" && info.Title.trim() !== "" ? info.Title.trim() : undefined;
    const document: FetchedDocument = {
      markdown: withPageMarkers(text.map((page) => page.replace(/[ \t]+\n/g, "\n").trim())),
      metadata: { content_type: "application/pdf", pages: totalPages },
    };
    if (title) {
      document.title = title;
      document.metadata.title = title;
    }
    return document;
  } finally {
    await pdf.destroy();
  }
}

/** Every page behind its marker, empty pages included so the numbers stay right; no text, no markers. */
function withPageMarkers(pages: readonly string[]): string {
  if (pages.every((page) => page === "")) return "";
  return pages
    .map((page, index) => `<!-- page ${index + 1} -->${page === "" ? "" : `\n\n${page}`}`)
    .join("\n\n");
}
