/**
 * extract for a tenant: each URL's page filled into the caller's JSON Schema. Its extractors, in order
 * (lib/providers/extract): Firecrawl's own extraction where the workspace has a Firecrawl key, then the
 * workspace's own model and the operator's model over the page text read through the fetch path (the
 * tenant's cached documents, domain routes, the SSRF-safe direct fetcher, the keyed waterfall). Every fetch step and extractor call is admitted
 * against the budgets on its own (a model priced by tokens reserves its ceiling and keeps what it used), and
 * the call's one trace holds them all. A URL's data is cached per tenant under its URL, schema, prompt and
 * passages flag; an error never is. One result or error per URL, in input order: the call itself succeeds.
 */
import { extractPage, type UrlExtraction } from "@/lib/engine/extract/extract-page";
import type { ExtractEntry, ExtractProvider } from "@/lib/engine/extract/types";
import { MAX_CHARS_CAP } from "@/lib/engine/fetch/input";
import type { FetchProviderEntry } from "@/lib/engine/fetch/types";
import type { StageSpan } from "@/lib/engine/grounding/types";
import { mapWithConcurrency } from "@/lib/engine/grounding/worker-pool";
import { linkedAbort } from "@/lib/engine/shared/abort";
import type { AdmitHook, ResolvedProvider } from "@/lib/engine/shared/types";
import { checkTarget, SsrfBlocked, systemResolver } from "@/lib/http/ssrf";
import { cacheTtlSeconds, readCached, writeCached } from "@/lib/pipeline/cache/result-cache";
import { assertScope, type TenantContext } from "@/lib/pipeline/context";
import { ServiceError } from "@/lib/pipeline/errors";
import type { OnProgress } from "@/lib/pipeline/provider-attempts";
import {
  fetchAllowlistFromEnv,
  operatorModelPrice,
  withOperatorModel,
  withProviderSettings,
} from "@/lib/pipeline/providers/operator-providers";
import { tenantProviders } from "@/lib/pipeline/providers/tenant-providers";
import { endpointGuard } from "@/lib/pipeline/providers/workspace-model";
import { runCall, toolCacheKey } from "@/lib/pipeline/run-call";
import { parseInput } from "@/lib/pipeline/validate";
import { extractProviders } from "@/lib/providers/extract";
import { fetchProviders } from "@/lib/providers/fetch";
import { tenantDocuments } from "@/lib/services/fetch/fetch-batch";
import { fetchMany, isBatchError } from "@/lib/services/fetch/fetch-many";
import { stageBudget } from "@/lib/services/search/stage-budget";
import { stageSpanRecords, withStageTrace } from "@/lib/services/search/stage-trace";
import { compiledOutputSchema, type ExtractInput, extractToolInput } from "./input";

/** URLs worked on at once (each a fetch and up to two model calls per extractor). */
const CONCURRENT_URLS = 4;

export type ExtractItem = UrlExtraction & { cache_hit?: boolean };

interface ExtractBatch {
  results: ExtractItem[];
  /** The model each model extractor asked, by provider id: the trace names it beside the provider. */
  models: Readonly<Record<string, string>>;
  providers_failed: [];
  spans: [];
  /** Some URL failed: the trace says partial. */
  partial: boolean;
}

interface ExtractArgs {
  ctx: TenantContext;
  input: unknown;
  onProgress?: OnProgress;
  signal?: AbortSignal;
}

/** What a URL's cached result is stored under: everything that shapes it but the deadline. */
const resultCacheInput = (url: string, input: ExtractInput) => ({
  url,
  schema: input.schema,
  prompt: input.prompt,
  include_passages: input.include_passages === true,
});

/**
 * The extractors a call can use: Firecrawl with a key, the workspace's own model (its name and price stored
 * with its key, its requests held to the guard of a tenant-supplied URL), the operator model once it is named
 * (with its price per token, when the operator set one). None is `no_provider_configured` (503), before
 * anything is fetched.
 */
export function readyExtractors(
  ctx: TenantContext,
  entries: readonly ResolvedProvider<ExtractProvider>[],
): ExtractEntry[] {
  const price = operatorModelPrice(ctx.env);
  const ready = withOperatorModel(entries, ctx.env).map((entry): ExtractEntry => {
    if (entry.provider.reads !== "text") return entry;
    const { endpoint } = entry;
    if (endpoint)
      return { ...entry, model: endpoint.model, price: endpoint.price, guard: endpointGuard(ctx.env) };
    return price ? { ...entry, price } : entry;
  });
  if (ready.length === 0)
    throw new ServiceError(
      "no_provider_configured",
      "extract needs a Firecrawl key, the workspace's own model (workspace_llm, on the Keys page) or the operator model (SEARCHMUX_LLM_BASE_URL and SEARCHMUX_LLM_MODEL)",
    );
  return ready;
}

export async function extract({ ctx, input, onProgress, signal }: ExtractArgs) {
  assertScope(ctx, "fetch");
  const parsed = parseInput(extractToolInput, input);
  // Compiled once for every URL, and before anything is asked: a schema that does not compile is invalid input.
  const validate = await compiledOutputSchema(parsed.schema, "schema", signal);
  const { available } = await tenantProviders(ctx, fetchProviders);
  const fetchEntries = withProviderSettings(available, ctx.env);
  const trace = withStageTrace(ctx);
  return runCall(trace.ctx, {
    tool: "extract",
    spanKind: "llm",
    registry: extractProviders,
    wanted: parsed.providers,
    onProgress,
    cacheInput: {
      urls: parsed.urls,
      schema: parsed.schema,
      prompt: parsed.prompt,
      include_passages: parsed.include_passages === true,
    },
    // Each URL's result is cached on its own (below).
    uncached: true,
    authorize: (entries) => readyExtractors(ctx, entries),
    run: async (entries) => {
      const extractors = readyExtractors(ctx, entries);
      const budget = stageBudget(ctx, onProgress);
      const spans: StageSpan[] = [];
      const origin = performance.now();
      const deadline = linkedAbort(
        [signal],
        parsed.timeout_ms,
        `not extracted before the call's ${parsed.timeout_ms} ms deadline`,
      );
      try {
        const byUrl = new Map<string, ExtractItem>();
        await mapWithConcurrency([...new Set(parsed.urls)], CONCURRENT_URLS, async (url) => {
          const cacheKey = toolCacheKey(ctx, "extract", resultCacheInput(url, parsed), entries);
          const hit = parsed.no_cache ? null : await readCached<UrlExtraction>(ctx.kv, cacheKey);
          if (hit) return byUrl.set(url, { ...hit, cache_hit: true });
          const blocked = await refusedTarget(ctx, url, deadline.signal);
          if (blocked) return byUrl.set(url, { url, error: { code: "invalid_input", message: blocked } });
          const outcome = await extractPage(
            {
              url,
              schema: parsed.schema,
              validate,
              prompt: parsed.prompt,
              passages: parsed.include_passages === true,
            },
            {
              entries: extractors,
              page: pageText(ctx, url, fetchEntries, budget.admitter("fetch", fetchEntries), {
                origin,
                deadline: deadline.signal,
                timeoutMs: parsed.timeout_ms,
                spans,
              }),
              admit: budget.admitter("llm", extractors),
              deadline: deadline.signal,
              origin,
            },
          );
          spans.push(...outcome.spans);
          if (!("error" in outcome.item))
            ctx.pending.track(writeCached(ctx.kv, cacheKey, outcome.item, cacheTtlSeconds(ctx.env)));
          return byUrl.set(url, { ...outcome.item, cache_hit: false });
        });
        const results = parsed.urls.map((url) => byUrl.get(url) as ExtractItem);
        return {
          results,
          models: Object.fromEntries(
            extractors.flatMap((entry) => (entry.model ? [[entry.provider.id, entry.model]] : [])),
          ),
          providers_failed: [],
          spans: [],
          partial: results.some((item) => "error" in item),
        } satisfies ExtractBatch;
      } finally {
        deadline.dispose();
        const kept = await budget.close();
        const secrets = [...fetchEntries, ...entries].flatMap((e) => (e.apiKey ? [e.apiKey] : []));
        trace.add(stageSpanRecords(spans, kept, secrets));
      }
    },
    succeeded: (batch) => batch.results.length,
    summarize: (batch) => ({
      urls: batch.results.map((item) =>
        "error" in item
          ? { url: item.url, error: item.error.code }
          : {
              url: item.url,
              provider: item.provider,
              model: batch.models[item.provider],
              cache_hit: item.cache_hit,
            },
      ),
    }),
  });
}

/** Why the URL's target is refused (a private or internal address), checked before any extractor reads it. */
async function refusedTarget(
  ctx: TenantContext,
  url: string,
  signal: AbortSignal,
): Promise<string | undefined> {
  try {
    signal.throwIfAborted();
    await checkTarget(new URL(url), { allowlist: fetchAllowlistFromEnv(ctx.env) }, systemResolver);
    return undefined;
  } catch (error) {
    if (error instanceof SsrfBlocked) return error.message;
    throw error;
  }
}

interface PageCall {
  origin: number;
  deadline: AbortSignal;
  timeoutMs: number;
  /** Where the fetch steps' spans go, for the call's trace. */
  spans: StageSpan[];
}

/** The URL's page text through the fetch path, fetched once whichever model asks first. */
function pageText(
  ctx: TenantContext,
  url: string,
  fetchEntries: readonly FetchProviderEntry[],
  admitFetch: AdmitHook,
  call: PageCall,
) {
  let page: ReturnType<typeof read> | undefined;
  const read = async () => {
    const started = performance.now();
    const batch = await fetchMany(tenantDocuments(ctx, { format: "markdown" }, fetchEntries, admitFetch), {
      urls: [url],
      window: { offset: 0, maxChars: MAX_CHARS_CAP },
      timeoutMs: Math.max(1, Math.round(call.timeoutMs - (started - call.origin))),
      signal: call.deadline,
    });
    const shift = Math.round(started - call.origin);
    call.spans.push(
      ...batch.spans.map((span) => ({ ...span, start_offset_ms: span.start_offset_ms + shift })),
    );
    const [item] = batch.results;
    if (!item || isBatchError(item)) {
      const error = item?.error ?? { code: "fetch_failed", message: "not fetched" };
      return { error: { code: error.code, message: `the page could not be read: ${error.message}` } };
    }
    return { title: item.title, text: item.content };
  };
  return () => {
    page ??= read();
    return page;
  };
}
