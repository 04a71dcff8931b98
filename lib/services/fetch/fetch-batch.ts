/**
 * fetch with `urls`: every URL through the same path as a single fetch (its cached document, else the
 * engine with each paid step admitted against the call's budgets), in parallel with at most PER_HOST
 * requests to one host at a time, all within the call's deadline. One page or one error per URL, in input
 * order; a URL that fails never fails the call. One trace for the call with the spans of every URL.
 */
import type { FetchResult } from "@/lib/engine/fetch/run-fetch";
import type { FetchFailure, FetchProviderEntry, FetchSpan } from "@/lib/engine/fetch/types";
import { mapWithConcurrency } from "@/lib/engine/grounding/worker-pool";
import { linkedAbort } from "@/lib/engine/shared/abort";
import type { AdmitHook } from "@/lib/engine/shared/types";
import { fetchProviders } from "@/lib/providers/fetch";
import { cacheTtlSeconds, readCached, writeCached } from "@/lib/services/cache/result-cache";
import type { TenantContext } from "@/lib/services/context";
import { ServiceError } from "@/lib/services/errors";
import type { OnProgress } from "@/lib/services/provider-attempts";
import { throwIfNothingSucceeded } from "@/lib/services/providers/selection";
import { runToolCall, toolCacheKey } from "@/lib/services/tool-call";
import {
  type DocumentOptions,
  documentCacheInput,
  fetchDocument,
  isNoPage,
  type NoPage,
} from "./fetch-document";
import { type PagedFetch, pageOf, type Window } from "./page-window";

/** Requests in flight to one host (host and port) at once: parallel enough, and polite to the site. */
export const PER_HOST = 3;

export type BatchPage = PagedFetch & { cache_hit: boolean };
export interface BatchError {
  url: string;
  error: { code: string; message: string };
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

export interface BatchRequest {
  urls: readonly string[];
  options: DocumentOptions;
  window: Window;
  timeoutMs: number;
  noCache?: boolean;
  signal?: AbortSignal;
  onProgress?: OnProgress;
}

export const isBatchError = (item: BatchItem): item is BatchError => "error" in item;

interface Fetched {
  item: BatchItem;
  failed: readonly FetchFailure[];
  spans: readonly FetchSpan[];
}

export async function fetchBatch(ctx: TenantContext, request: BatchRequest) {
  const origin = performance.now();
  const deadline = linkedAbort(
    [request.signal],
    request.timeoutMs,
    `not fetched before the call's ${request.timeoutMs} ms deadline`,
  );
  try {
    return await runToolCall<(typeof fetchProviders)[number], FetchBatch>(ctx, {
      tool: "fetch",
      spanKind: "fetch",
      onProgress: request.onProgress,
      registry: fetchProviders,
      cacheInput: { urls: request.urls, ...request.options },
      uncached: true,
      async run(entries, admit) {
        const fetched = await perHost(request.urls, (url) => {
          const started = performance.now();
          return fetchOne(ctx, { ...request, url, deadline: deadline.signal, origin }, entries, admit).then(
            (one) => ({ ...one, spans: shifted(one.spans, started - origin) }),
          );
        });
        return {
          results: fetched.map((one) => one.item),
          providers_failed: fetched.flatMap((one) => one.failed),
          spans: fetched.flatMap((one) => one.spans),
          partial: fetched.some((one) => isBatchError(one.item)),
        };
      },
      // Every URL is answered, with its page or its error: the call itself succeeds.
      succeeded: (batch) => batch.results.length,
      summarize: (batch) => ({
        urls: batch.results.map((item) =>
          isBatchError(item)
            ? { url: item.url, error: item.error.code }
            : {
                url: item.url,
                provider: item.provider,
                chars: item.content.length,
                cache_hit: item.cache_hit,
              },
        ),
      }),
    });
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

type OneRequest = BatchRequest & { url: string; deadline: AbortSignal; origin: number };

async function fetchOne(
  ctx: TenantContext,
  request: OneRequest,
  entries: readonly FetchProviderEntry[],
  admit: AdmitHook,
): Promise<Fetched> {
  const { url, window, deadline } = request;
  const key = toolCacheKey(ctx, "fetch", documentCacheInput(url, request.options), entries);
  try {
    const hit = request.noCache ? null : await readCached<FetchResult>(ctx.kv, key);
    if (hit) return { item: { ...pageOf(hit, window), cache_hit: true }, failed: [], spans: [] };
    if (deadline.aborted) return { item: timedOut(request), failed: [], spans: [] };

    const remainingMs = request.timeoutMs - (performance.now() - request.origin);
    const outcome = await fetchDocument(
      ctx,
      { url, options: request.options, timeoutMs: Math.max(1, Math.round(remainingMs)), signal: deadline },
      entries,
      admit,
    );
    if (isNoPage(outcome)) {
      const item = deadline.aborted ? timedOut(request) : { url, error: noPageError(outcome) };
      return { item, failed: outcome.providers_failed, spans: outcome.spans };
    }
    ctx.usage.track(writeCached(ctx.kv, key, outcome, cacheTtlSeconds(ctx.env)));
    return {
      item: { ...pageOf(outcome, window), cache_hit: false },
      failed: outcome.providers_failed,
      spans: outcome.spans,
    };
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    return { item: { url, error: { code: error.code, message: error.message } }, failed: [], spans: [] };
  }
}

/** The error a fetch of this one URL would have answered with. */
function noPageError(outcome: NoPage): BatchError["error"] {
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
