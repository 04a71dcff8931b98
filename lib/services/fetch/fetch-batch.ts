/**
 * fetch with `urls` for a tenant: every URL through the same path as a single fetch (its document cached
 * in KV under the same key, else the engine with each paid step admitted against the call's budgets), as
 * fetch-many.ts runs many URLs. One trace for the call with the spans of every URL.
 */
import type { FetchResult } from "@/lib/engine/fetch/run-fetch";
import type { FetchProviderEntry } from "@/lib/engine/fetch/types";
import type { AdmitHook } from "@/lib/engine/shared/types";
import { cacheTtlSeconds, readCached, writeCached } from "@/lib/pipeline/cache/result-cache";
import type { TenantContext } from "@/lib/pipeline/context";
import type { OnProgress } from "@/lib/pipeline/provider-attempts";
import { runCall, toolCacheKey } from "@/lib/pipeline/run-call";
import { fetchProviders } from "@/lib/providers/fetch";
import {
  assertStepsAvailable,
  type DocumentOptions,
  documentCacheInput,
  fetchDocument,
} from "./fetch-document";
import {
  type DocumentSource,
  type FetchBatch,
  fetchMany,
  isBatchError,
  type ManyRequest,
} from "./fetch-many";

export interface BatchRequest extends ManyRequest {
  options: DocumentOptions;
  onProgress?: OnProgress;
}

export async function fetchBatch(ctx: TenantContext, request: BatchRequest) {
  return runCall<(typeof fetchProviders)[number], FetchBatch>(ctx, {
    tool: "fetch",
    spanKind: "fetch",
    onProgress: request.onProgress,
    registry: fetchProviders,
    cacheInput: { urls: request.urls, ...request.options },
    uncached: true,
    authorize: (entries) => assertStepsAvailable(request.options.providers, entries),
    run: (entries, admit) => fetchMany(tenantDocuments(ctx, request.options, entries, admit), request),
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
}

/** The tenant's documents: in KV under the key a fetch of one url caches them with (extract reads them too). */
export function tenantDocuments(
  ctx: TenantContext,
  options: DocumentOptions,
  entries: readonly FetchProviderEntry[],
  admit: AdmitHook,
): DocumentSource {
  const key = (url: string) => toolCacheKey(ctx, "fetch", documentCacheInput(url, options), entries);
  return {
    kept: (url) => readCached<FetchResult>(ctx.kv, key(url)),
    fetch: (url, timeoutMs, signal) =>
      fetchDocument(ctx, { url, options, timeoutMs, signal }, entries, admit),
    keep: (url, document) =>
      ctx.pending.track(writeCached(ctx.kv, key(url), document, cacheTtlSeconds(ctx.env))),
  };
}
