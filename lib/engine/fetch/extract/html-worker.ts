/**
 * HTML → document (html.ts) in a worker thread started by html-page.ts through
 * lib/engine/shared/run-in-worker.ts. Node cannot start TypeScript in a worker: this entry is bundled to
 * `.workers/html-worker.mjs` (scripts/build-workers.mjs) and, for the command line, to dist/ (scripts/build-cli.mjs).
 *
 * workerData: HtmlWorkerData. Replies once: { type: "done", result: FetchedDocument } (its `html` serialised
 * here, off the server's thread), or { type: "failed", message } for an error of the conversion itself.
 */
import { parentPort, workerData } from "node:worker_threads";
import { documentFromReadablePart, type ReadablePart } from "./html";

export interface HtmlWorkerData {
  part: ReadablePart;
  url: string;
}

const { part, url } = workerData as HtmlWorkerData;
try {
  // The spread reads the lazy `html` (html.ts): a reply is copied, and a getter is not.
  parentPort?.postMessage({ type: "done", result: { ...documentFromReadablePart(part, url) } });
} catch (error) {
  parentPort?.postMessage({ type: "failed", message: `HTML conversion failed: ${(error as Error).message}` });
}
