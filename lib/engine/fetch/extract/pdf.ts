/** PDF bytes → text per page (unpdf, a serverless pdf.js build), page count and title in metadata. */
import { extractText, getDocumentProxy, getMeta } from "unpdf";
import type { FetchedDocument } from "../types";

export async function documentFromPdf(body: Buffer): Promise<FetchedDocument> {
  // pdf.js takes ownership of (and may detach) the buffer it is given, so it gets a copy.
  const pdf = await getDocumentProxy(new Uint8Array(body));
  try {
    const { totalPages, text } = await extractText(pdf, { mergePages: false });
    const { info } = await getMeta(pdf);
    const title = typeof info.Title === "string" && info.Title.trim() !== "" ? info.Title.trim() : undefined;
    const markdown = text
      .map((page) => page.replace(/[ \t]+\n/g, "\n").trim())
      .filter((page) => page !== "")
      .join("\n\n");
    const document: FetchedDocument = {
      markdown,
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
