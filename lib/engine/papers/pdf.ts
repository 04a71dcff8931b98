/**
 * The paper_fetch path: a merged paper's full text via the fetch engine. The engine stays free of the
 * fetch wiring: the caller passes `fetchPdf` (runFetch on the chosen URL). arXiv papers always have a
 * PDF at arxiv.org/pdf/<id>; others use the open PDF link a provider reported.
 */
import type { PaperRecord } from "./types";

export function paperPdfUrl(paper: Pick<PaperRecord, "arxiv_id" | "pdf_url">): string | null {
  if (paper.arxiv_id) return `https://arxiv.org/pdf/${paper.arxiv_id}`;
  return paper.pdf_url;
}

/** Fetches the paper's PDF text through `fetchPdf`; null when the paper has no known PDF. */
export async function fetchPaperPdf<T>(
  paper: Pick<PaperRecord, "arxiv_id" | "pdf_url">,
  fetchPdf: (url: string) => Promise<T>,
): Promise<{ pdf_url: string; content: T } | null> {
  const url = paperPdfUrl(paper);
  if (url === null) return null;
  return { pdf_url: url, content: await fetchPdf(url) };
}
