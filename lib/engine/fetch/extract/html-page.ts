/**
 * A fetched HTML page → document (html.ts), off the server's main thread when it is large: a page of the
 * 2 MiB extraction reads held one core for seconds, and every other request waited. The cost grows with the
 * page's elements far more than with its text, so a page converts inline when it is at most INLINE_HTML_CHARS
 * or has at most INLINE_HTML_TAGS tags (a 500 KB article has about 5,000 and converts in some 60 ms; a 1 MB
 * forum thread has 54,000); any other runs in a worker thread (html-worker.ts, bundled: lib/engine/shared/worker-bundle.ts) under
 * HTML_WORKER_LIMITS, and is abandoned (the worker terminated) when the caller's signal aborts: the step's
 * timeout or the request's deadline. A smaller page converts inline: a worker costs 130–200 ms to start and
 * load the parser on a loaded 2-core machine (about 50 ms idle) and converts slower while its code is cold,
 * while a page of INLINE_HTML_CHARS converted inline in about 230 ms there (about 100 ms idle), and most
 * pages are far smaller.
 *
 * Errors: the signal's reason on abort; ProviderError "too_large" when the worker's heap or time runs out.
 */
import type { FetchedDocument } from "@/lib/engine/fetch/types";
import { runInWorker, type WorkerLimits, workerSlots } from "@/lib/engine/shared/run-in-worker";
import { bundledWorkerScript, workerBundleReady } from "@/lib/engine/shared/worker-bundle";
import { documentFromReadablePart, readablePart } from "./html";
import type { HtmlWorkerData } from "./html-worker";

/** Characters of HTML converted on the calling thread whatever their tags. */
export const INLINE_HTML_CHARS = 256 * 1024;
/** Tags (`<`) of a larger page converted on the calling thread: text-heavy pages stay off the worker's start. */
export const INLINE_HTML_TAGS = 16_000;

/** Whether a page's HTML (as read: at most MAX_HTML_CHARS) converts on the calling thread. */
export function convertsInline(html: string): boolean {
  if (html.length <= INLINE_HTML_CHARS) return true;
  let tags = 0;
  for (let at = html.indexOf("<"); at !== -1; at = html.indexOf("<", at + 1)) {
    if (++tags > INLINE_HTML_TAGS) return false;
  }
  return true;
}

/**
 * A DOM takes some forty times its source on a real page (2 MiB of a forum thread, MAX_HTML_CHARS, peaked near
 * 100 MiB) and more on a dense one: 2 MiB of 175,000 elements (paragraphs of links) fits in 256 MiB, 2 MiB of
 * 260,000 bare elements needs 384 and fails as too_large. The time cap is a backstop for callers without a
 * signal; the signal ends the conversion at the caller's deadline.
 */
const HTML_WORKER_LIMITS: WorkerLimits = { heapMb: 256, timeMs: 30_000 };

/** Large pages converted at once per process: each may take HTML_WORKER_LIMITS.heapMb. */
const htmlSlots = workerSlots(2);

/** `url` is where the HTML came from: relative links resolve against it (or the page's <base>). */
export async function documentFromHtmlPage(
  page: string,
  url: string,
  signal?: AbortSignal,
): Promise<FetchedDocument> {
  // Cut here: the worker gets no more of a 20 MB page than it reads.
  const part = readablePart(page);
  if (convertsInline(part.html)) return documentFromReadablePart(part, url, signal);
  await workerBundleReady("html-worker");
  const workerData: HtmlWorkerData = { part, url };
  return runInWorker<FetchedDocument>({
    script: bundledWorkerScript("html-worker"),
    label: "HTML conversion",
    slots: htmlSlots,
    workerData,
    limits: HTML_WORKER_LIMITS,
    signal,
  });
}
