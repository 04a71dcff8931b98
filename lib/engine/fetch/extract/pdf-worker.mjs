/**
 * PDF bytes → text per page, in a worker thread started by lib/engine/shared/run-in-worker.ts (a plain .mjs
 * file found at run time, never bundled, so it runs the same under vitest, tsx and `next start`). The parent bounds
 * the heap and the time and terminates this thread when either runs out; this script bounds the rest:
 * decoded stream bytes (typed-array-budget.mjs), the pages read (the first `maxPages`) and the characters
 * kept (`maxChars`, the last page cut short). Pages are read one at a time, so a document with a million
 * pages costs no more than its first `maxPages`.
 *
 * workerData: { bytes: Uint8Array, maxPages, maxChars, maxDecodedBytes, maxStreamBytes }.
 * Replies once: { type: "done", result: { pages: string[], totalPages, title?, cut? } }, where `cut` says
 * why the text stops early ("pages" or "chars"); or { type: "too_large", message }; or
 * { type: "failed", message } for a file pdf.js cannot read.
 */
import { parentPort, workerData } from "node:worker_threads";
import { capTypedArrayAllocations } from "./typed-array-budget.mjs";

const { bytes, maxPages, maxChars, maxDecodedBytes, maxStreamBytes } = workerData;

capTypedArrayAllocations({ maxBytes: maxDecodedBytes, maxSingleBytes: maxStreamBytes }, (reason) =>
  parentPort.postMessage({ type: "too_large", message: `PDF too large to parse: ${reason}` }),
);
// pdf.js inflates with the native DecompressionStream when there is one, into chunks the budget never
// sees (all of a page's content streams at once); without it, pdf.js falls back to its own inflater.
delete globalThis.DecompressionStream;
// Loaded only now, so that every buffer pdf.js allocates goes through the budget.
const { getDocumentProxy } = await import("unpdf");

async function extract() {
  const pdf = await getDocumentProxy(bytes);
  try {
    const totalPages = pdf.numPages;
    const pages = [];
    let chars = 0;
    let cut = totalPages > maxPages ? "pages" : undefined;
    for (let number = 1; number <= Math.min(totalPages, maxPages); number++) {
      const page = await pdf.getPage(number);
      const text = pageText(await page.getTextContent());
      page.cleanup();
      if (chars + text.length >= maxChars) {
        pages.push(text.slice(0, maxChars - chars));
        cut = number < totalPages || text.length > maxChars - chars ? "chars" : cut;
        break;
      }
      pages.push(text);
      chars += text.length;
    }
    const { info } = await pdf.getMetadata();
    const title = typeof info?.Title === "string" && info.Title.trim() !== "" ? info.Title.trim() : undefined;
    return { pages, totalPages, title, cut };
  } finally {
    await pdf.destroy();
  }
}

/** The page's text runs in content order, a newline where pdf.js saw a line end (as unpdf's extractText). */
function pageText(content) {
  return content.items
    .filter((item) => item.str != null)
    .map((item) => item.str + (item.hasEOL ? "\n" : ""))
    .join("");
}

try {
  parentPort.postMessage({ type: "done", result: await extract() });
} catch (error) {
  const reason = error instanceof Error ? error.message : String(error);
  parentPort.postMessage({ type: "failed", message: `unreadable document: ${reason}` });
}
