/**
 * fetch's windows, whoever keeps the documents: a URL's window comes from its kept whole document, else
 * from a fresh one, which is then kept. With `urls`, every URL that way in parallel, at most PER_HOST
 * requests to one host at a time, all within the call's deadline: one page or one error per URL, in input
 * order; a URL that fails never fails the call. The documents come from a `DocumentSource`: fetch-batch.ts's
 * keeps them in the context's KV under the key a fetch of one url uses, with paid steps admitted.
 */
import type { FetchResult } from "@/lib/engine/fetch/run-fetch";
import type { FetchFailure, FetchSpan } from "@/lib/engine/fetch/types";
import { mapWithConcurrency } from "@/lib/engine/grounding/worker-pool";
import { linkedAbort } from "@/lib/engine/shared/abort";
import { ServiceError } from "@/lib/pipeline/errors";
import { throwIfNothingSucceeded } from "@/lib/pipeline/providers/selection";
import { isNoPage, type NoPage, pageNotFound } from "./fetch-document";
import { type PagedFetch, pageOf, type Window } from "./page-window";

/** Requests in flight to one host (host and port) at once: parallel enough, and polite to the site. */
export const PER_HOST = 3;

type BatchPage = PagedFetch & { cache_hit: boolean };
export interface BatchError {
  url: string;
  /** `status`: what the site answered, when it said the page does not exist (fetch-document.ts). */
  error: { code: string; message: string; status?: number };
}
export type BatchItem = BatchPage | BatchError;

export interface FetchBatch {
  results: BatchItem[];
  /** Every URL's failed steps, for the trace. */
  providers_failed: FetchFailure[];
  spans: FetchSpan[];
  /** Some URL failed: the trace says partial. */
  partial: boolean;
}

export const isBatchError = (item: BatchItem): item is BatchError => "error" in item;

/** Where a caller's whole documents come from and are kept (the cache key leaves the window out). */
export interface DocumentSource {
  /** The document an earlier call kept, or null. */
  kept(url: string): Promise<FetchResult | null>;
  /** The document through the engine (fetch-document.ts), or why there is none. */
  fetch(url: string, timeoutMs: number, signal?: AbortSignal): Promise<FetchResult | NoPage>;
  keep(url: string, document: FetchResult): void;
}

interface PageRequest {
  window: Window;
  timeoutMs: number;
  /** Fetch again even when the document is kept (the fresh one is kept). */
  noCache?: boolean;
  signal?: AbortSignal;
}

/** One URL's window with the steps that failed on the way there (none for a kept document). */
interface FetchedWindow {
  page: BatchPage;
  providers_failed: readonly FetchFailure[];
  spans: readonly FetchSpan[];
}

/** `url`'s window; NoPage when no step produced a page (or the signal had already ended the call). */
async function pageFrom(
  source: DocumentSource,
  url: string,
  request: PageRequest,
): Promise<FetchedWindow | NoPage> {
  const hit = request.noCache ? null : await source.kept(url);
  if (hit)
    return { page: { ...pageOf(hit, request.window), cache_hit: true }, providers_failed: [], spans: [] };
  if (request.signal?.aborted) return { noPage: true, providers_failed: [], spans: [] };
  const outcome = await source.fetch(url, request.timeoutMs, request.signal);
  if (isNoPage(outcome)) return outcome;
  source.keep(url, outcome);
  return {
    page: { ...pageOf(outcome, request.window), cache_hit: false },
    providers_failed: outcome.providers_failed,
    spans: outcome.spans,
  };
}

export interface ManyRequest extends PageRequest {
  urls: readonly string[];
}

interface Fetched {
  item: BatchItem;
  failed: readonly FetchFailure[];
  spans: readonly FetchSpan[];
}

export async function fetchMany(source: DocumentSource, request: ManyRequest): Promise<FetchBatch> {
  const origin = performance.now();
  const deadline = linkedAbort(
    [request.signal],
    request.timeoutMs,
    `not fetched before the call's ${request.timeoutMs} ms deadline`,
  );
  try {
    const fetched = await perHost(request.urls, (url) => {
      const started = performance.now();
      return fetchOne(source, { ...request, url, signal: deadline.signal, origin }).then((one) => ({
        ...one,
        spans: shifted(one.spans, started - origin),
      }));
    });
    return {
      results: fetched.map((one) => one.item),
      providers_failed: fetched.flatMap((one) => one.failed),
      spans: fetched.flatMap((one) => one.spans),
      partial: fetched.some((one) => isBatchError(one.item)),
    };
  } finally {
    deadline.dispose();
  }
}

/** Runs `work` per URL, at most PER_HOST at once per host; the same URL twice is fetched once. */
async function perHost<T>(urls: readonly string[], work: (url: string) => Promise<T>): Promise<T[]> {
  const byHost = new Map<string, string[]>();
  for (const url of new Set(urls)) {
    const host = new URL(url).host;
    byHost.set(host, [...(byHost.get(host) ?? []), url]);
  }
  const done = new Map<string, T>();
  await Promise.all(
    [...byHost.values()].map((group) =>
      mapWithConcurrency(group, PER_HOST, async (url) => done.set(url, await work(url))),
    ),
  );
  return urls.map((url) => done.get(url) as T);
}

/** One URL of many: `signal` is the call's deadline. */
type OneRequest = ManyRequest & { url: string; signal: AbortSignal; origin: number };

async function fetchOne(source: DocumentSource, request: OneRequest): Promise<Fetched> {
  const { url, signal: deadline } = request;
  const remainingMs = request.timeoutMs - (performance.now() - request.origin);
  try {
    const outcome = await pageFrom(source, url, {
      ...request,
      timeoutMs: Math.max(1, Math.round(remainingMs)),
    });
    if (isNoPage(outcome)) {
      const item = deadline.aborted ? timedOut(request) : { url, error: noPageError(outcome) };
      return { item, failed: outcome.providers_failed, spans: outcome.spans };
    }
    return { item: outcome.page, failed: outcome.providers_failed, spans: outcome.spans };
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    return { item: { url, error: { code: error.code, message: error.message } }, failed: [], spans: [] };
  }
}

/** The error a fetch of this one URL would have answered with. */
function noPageError(outcome: NoPage): BatchError["error"] {
  const notFound = pageNotFound(outcome);
  const status = outcome.originVerdict?.status;
  if (notFound)
    return { code: notFound.code, message: notFound.message, ...(status !== undefined && { status }) };
  try {
    throwIfNothingSucceeded({ succeeded: 0, providers_failed: outcome.providers_failed });
  } catch (error) {
    if (error instanceof ServiceError) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error("unreachable: a fetch without a page is an error");
}

const timedOut = (request: OneRequest): BatchError => ({
  url: request.url,
  error: { code: "timeout", message: `no page before the call's ${request.timeoutMs} ms deadline` },
});

/** Span offsets from the URL's own fetch moved to the call's start. */
const shifted = (spans: readonly FetchSpan[], byMs: number): FetchSpan[] =>
  spans.map((span) => ({ ...span, start_offset_ms: span.start_offset_ms + Math.round(byMs) }));
