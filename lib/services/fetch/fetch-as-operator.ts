import type { z } from "zod";
import { DEFAULT_MAX_CHARS } from "@/lib/engine/fetch/input";
import type { FetchResult } from "@/lib/engine/fetch/run-fetch";
import type { FetchProviderEntry } from "@/lib/engine/fetch/types";
import type { Kv } from "@/lib/kv";
import { cacheTtlSeconds, readCached, resultCacheKey, writeCached } from "@/lib/pipeline/cache/result-cache";
import type { Env } from "@/lib/pipeline/context";
import { type OperatorContext, runOperatorCall } from "@/lib/pipeline/operator-call";
import { operatorProviderEntries, withProviderSettings } from "@/lib/pipeline/providers/operator-providers";
import { parseInput } from "@/lib/pipeline/validate";
import { fetchProviders } from "@/lib/providers/fetch";
import {
  type DocumentOptions,
  documentCacheInput,
  fetchDocument,
  isNoPage,
  type NoPage,
} from "./fetch-document";
import {
  type BatchPage,
  type DocumentSource,
  type FetchBatch,
  type FetchedWindow,
  fetchMany,
  pageFrom,
} from "./fetch-many";
import { fetchToolInput } from "./fetch-page";

/**
 * The operator's fetch steps: the direct fetcher and keyless routes always, Jina Reader and GitHub
 * with or without their key, keyed providers whose key is set; `<PROVIDER>_BASE_URL` overrides.
 */
export function operatorFetchEntries(env: Env): FetchProviderEntry[] {
  return withProviderSettings(operatorProviderEntries(fetchProviders, env), env);
}

type FetchToolInput = z.input<typeof fetchToolInput>;
interface OperatorFetchArgs<I> {
  ctx: OperatorContext;
  input: I;
  /**
   * Where whole documents are kept between calls (the stdio bridge's in-process store), so that later
   * windows of a document make no request; without one, every call fetches.
   */
  documents?: Kv;
}

/**
 * A fetch with the operator's providers only (keyless ones and keys from the environment), no tenant,
 * budget or trace: what `npm run smx -- fetch URL` and the stdio bridge's local mode run. Windows and
 * `urls` as for a tenant (fetch-many.ts).
 */
export function fetchAsOperator(
  args: OperatorFetchArgs<FetchToolInput & { url: string; urls?: undefined }>,
): Promise<BatchPage>;
export function fetchAsOperator(args: OperatorFetchArgs<FetchToolInput>): Promise<BatchPage | FetchBatch>;
export async function fetchAsOperator({
  ctx,
  input,
  documents,
}: OperatorFetchArgs<FetchToolInput>): Promise<BatchPage | FetchBatch> {
  const { url, urls, offset, max_chars, no_cache, timeout_ms, ...options } = parseInput(
    fetchToolInput,
    input,
  );
  const request = {
    window: { offset, maxChars: max_chars ?? DEFAULT_MAX_CHARS },
    timeoutMs: timeout_ms,
    noCache: no_cache,
    signal: ctx.signal,
  };
  const outcome = await runOperatorCall<FetchProviderEntry, FetchBatch | FetchedWindow | NoPage>({
    tool: "fetch",
    registry: fetchProviders,
    available: operatorFetchEntries(ctx.env),
    wanted: options.providers,
    run(entries) {
      const source = operatorDocuments(ctx.env, options, entries, documents);
      if (urls !== undefined) return fetchMany(source, { ...request, urls });
      return pageFrom(source, url as string, request); // the schema requires url or urls
    },
    // Many URLs answer with a page or an error each; one URL without a page is an error.
    succeeded: (result) => (isNoPage(result) ? 0 : 1),
  });
  if (isNoPage(outcome))
    throw new Error("unreachable: runOperatorCall rejects calls where nothing succeeded");
  return "results" in outcome ? outcome : outcome.page;
}

/** The operator's documents: in `documents` when given, under the hosted cache's document key. */
function operatorDocuments(
  env: Env,
  options: DocumentOptions,
  entries: readonly FetchProviderEntry[],
  documents: Kv | undefined,
): DocumentSource {
  const key = (url: string) => resultCacheKey("operator", "fetch", documentCacheInput(url, options));
  return {
    kept: async (url) => (documents ? readCached<FetchResult>(documents, key(url)) : null),
    fetch: (url, timeoutMs, signal) => fetchDocument({ env }, { url, options, timeoutMs, signal }, entries),
    keep: (url, document) => {
      if (documents) void writeCached(documents, key(url), document, cacheTtlSeconds(env));
    },
  };
}
