/**
 * PDF bytes → text per page (unpdf, a serverless pdf.js build), page count and title in metadata.
 * Each page starts with a `<!-- page N -->` line (invisible when the Markdown is rendered, kept in the
 * text format), so an agent can cite pages and a truncated document says where it stopped. A PDF
 * without any text (a scan) yields no content at all, so the content checks fail it over.
 *
 * pdf.js runs in a worker (pdf-worker.mjs through lib/engine/shared/run-in-worker.ts) under PDF_LIMITS: a
 * PDF bomb, a few hundred KB that inflate to gigabytes or a million pages, fails as "too_large" or is cut
 * short, while the server keeps answering. A document cut at the page or character cap ends with a comment saying so.
 */
import type { FetchedDocument } from "@/lib/engine/fetch/types";
import { runInWorker, workerSlots } from "@/lib/engine/shared/run-in-worker";

interface PdfLimits {
  /** Pages read, from the first; `metadata.pages` still counts them all. */
  maxPages: number;
  /** Characters kept: as many as a fetch may return (MAX_CHARS_CAP in ../input, which imports this module). */
  maxChars: number;
  /** ArrayBuffer and typed-array bytes pdf.js may allocate (decoded streams), counted cumulatively. */
  maxDecodedBytes: number;
  /** The largest one of them: a stream (or a page's streams together) decoded. */
  maxStreamBytes: number;
  /** The worker's V8 heap. */
  heapMb: number;
  /** Wall-clock time for the whole parse; the direct fetcher's own timeout. */
  timeMs: number;
}

export const PDF_LIMITS: PdfLimits = {
  maxPages: 500,
  maxChars: 1_000_000,
  maxDecodedBytes: 256 * 2 ** 20,
  maxStreamBytes: 64 * 2 ** 20,
  heapMb: 256,
  timeMs: 15_000,
};

/** PDFs parsed at once per process: each may take PDF_LIMITS.heapMb. */
const pdfSlots = workerSlots(2);

interface ParsedPdf {
  pages: string[];
  totalPages: number;
  title?: string;
  /** Why the text stops before the end of the document. */
  cut?: "pages" | "chars";
}

export interface PdfOptions {
  signal?: AbortSignal;
  limits?: Partial<PdfLimits>;
}

export async function documentFromPdf(body: Buffer, options: PdfOptions = {}): Promise<FetchedDocument> {
  const limits = { ...PDF_LIMITS, ...options.limits };
  // pdf.js takes ownership of (and may detach) the buffer it is given: the worker gets its own copy.
  const bytes = new Uint8Array(body);
  const parsed = await runInWorker<ParsedPdf>({
    script: "lib/engine/fetch/extract/pdf-worker.mjs",
    label: "document parsing",
    slots: pdfSlots,
    workerData: {
      bytes,
      maxPages: limits.maxPages,
      maxChars: limits.maxChars,
      maxDecodedBytes: limits.maxDecodedBytes,
      maxStreamBytes: limits.maxStreamBytes,
    },
    transferList: [bytes.buffer],
    limits: { heapMb: limits.heapMb, timeMs: limits.timeMs },
    signal: options.signal,
  });
  const pages = parsed.pages.map((page) => page.replace(/[ \t]+\n/g, "\n").trim());
  const document: FetchedDocument = {
    markdown: withPageMarkers(pages, cutNote(parsed, limits)),
    metadata: { content_type: "application/pdf", pages: parsed.totalPages },
  };
  if (parsed.title) {
    document.title = parsed.title;
    document.metadata.title = parsed.title;
  }
  return document;
}

/** Every page behind its marker, empty pages included so the numbers stay right; no text, no markers. */
function withPageMarkers(pages: readonly string[], note: string | undefined): string {
  if (pages.every((page) => page === "")) return "";
  const marked = pages.map((page, index) => `<!-- page ${index + 1} -->${page === "" ? "" : `\n\n${page}`}`);
  if (note) marked.push(note);
  return marked.join("\n\n");
}

function cutNote({ cut, pages, totalPages }: ParsedPdf, limits: PdfLimits): string | undefined {
  if (cut === "pages") return `<!-- stopped after page ${limits.maxPages} of ${totalPages} (page limit) -->`;
  if (cut === "chars") {
    return `<!-- stopped in page ${pages.length} of ${totalPages} after ${limits.maxChars} characters -->`;
  }
  return undefined;
}
