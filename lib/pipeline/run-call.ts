/**
 * The one path every paid tool call of a tenant takes (web_search, answer, paper_search, fetch, crawl),
 * in named stages: select the tenant's providers (own key, else operator key; keyless always) and the
 * caller's subset, read the per-tenant result cache, run the call with one budget admission per provider
 * call (a refused provider is skipped with `budget_exhausted`), settle each charge by the call's outcome
 * (refunding what never ran), answer a clear error when nothing succeeded, cache a complete result, and
 * record one trace per call (hit, success or failure). Partial results are never cached.
 */
import { randomUUID } from "node:crypto";
import type {
  AdmitHook,
  ProviderFailure,
  ProviderRegistration,
  ProviderSpan,
  ResolvedProvider,
} from "@/lib/engine/shared/types";
import { metrics } from "@/lib/observability/metrics";
import type { SpanKind } from "@/lib/pipeline/capabilities";
import { cacheTtlSeconds, readCached, resultCacheKey, writeCached } from "./cache/result-cache";
import type { TenantContext } from "./context";
import { unavailableError } from "./errors";
import { attemptLedger, type OnProgress } from "./provider-attempts";
import { throwIfNothingSucceeded } from "./providers/selection";
import { selectedProviders } from "./providers/tenant-providers";
import { type CallTrace, recordCallTrace } from "./traces/call-trace";

export interface ToolCallSpec<P extends ProviderRegistration, R> {
  tool: string;
  spanKind: SpanKind;
  registry: readonly P[];
  /** The caller's explicit provider subset, if any. */
  wanted?: readonly string[];
  noCache?: boolean;
  /** The result is never read from or written to the cache as a whole: `run` caches its parts itself. */
  uncached?: boolean;
  /** Checks on the providers the call will use (a scope one of them needs), before the cache and any call. */
  authorize?(entries: readonly ResolvedProvider<P>[]): void;
  /** The normalised input that identifies the result (without the provider subset and no_cache). */
  cacheInput: unknown;
  run(entries: ResolvedProvider<P>[], admit: AdmitHook): Promise<R>;
  /** Told of each provider attempt as it finishes (the playground's live timeline). */
  onProgress?: OnProgress;
  /** How many providers produced something usable. */
  succeeded(result: R): number;
  /**
   * The call's own error when nothing succeeded, answered before the generic "every provider failed" (fetch:
   * the site said the page does not exist); undefined for the generic one.
   */
  failure?(result: R): Error | undefined;
  /** Counts and top URLs for the trace. */
  summarize(result: R): Record<string, unknown>;
}

/** What every tool's result reports: per-provider failures and spans, and whether any provider fell short. */
interface ToolOutcome {
  providers_failed: ReadonlyArray<Pick<ProviderFailure, "provider"> & { reason: string }>;
  spans: readonly ProviderSpan[];
  /** Results with failures are not cached; a tool without the notion (fetch) is complete when it returns. */
  partial?: boolean;
  /** Every provider answer came from the answers kept per provider (provider-answers.ts): nothing was bought. */
  cached?: boolean;
}

export type ToolCallResult<R> = R & { cache_hit: boolean; trace_id: string };

const failureSummary = (result: ToolOutcome) => ({
  failed: result.providers_failed.map(({ provider, reason }) => ({ provider, reason })),
});

/** Where a call's result is cached: per tenant, tool, normalised input and the providers it may use. */
export function toolCacheKey(
  ctx: TenantContext,
  tool: string,
  cacheInput: unknown,
  entries: readonly ResolvedProvider<ProviderRegistration>[],
): string {
  return resultCacheKey(ctx.tenantId, tool, {
    input: cacheInput,
    providers: entries.map((e) => e.provider.id).sort(),
  });
}

/** The call's providers: the tenant's, narrowed to the caller's subset, checked by the tool. */
async function selectStage<P extends ProviderRegistration, R>(
  ctx: TenantContext,
  spec: ToolCallSpec<P, R>,
): Promise<ResolvedProvider<P>[]> {
  const entries = await selectedProviders(ctx, spec);
  spec.authorize?.(entries);
  return entries;
}

/** A cached result of the same call, told to the progress listener as one cache-hit step. */
async function cacheStage<P extends ProviderRegistration, R>(
  ctx: TenantContext,
  spec: ToolCallSpec<P, R>,
  cacheKey: string,
): Promise<R | null> {
  if (spec.noCache || spec.uncached) return null;
  const hit = await readCached<R>(ctx.kv, cacheKey);
  metrics().cacheLookups.inc({ tool: spec.tool, result: hit ? "hit" : "miss" });
  if (hit) {
    spec.onProgress?.({
      provider: "*",
      kind: spec.spanKind,
      start_offset_ms: 0,
      duration_ms: 0,
      outcome: "cache_hit",
    });
  }
  return hit;
}

/**
 * Runs the tool with a budget admission per provider call, then settles: the ledger closes whether or not
 * `run` returns, so a step that throws after admission leaves no billed call open for the sweep, and
 * attempts that never ran are refunded at once. Throws when no provider produced anything.
 */
async function providerStage<P extends ProviderRegistration, R extends ToolOutcome>(
  ctx: TenantContext,
  spec: ToolCallSpec<P, R>,
  entries: ResolvedProvider<P>[],
  traceId: string,
  charged: Map<string, number[]>,
  ran: { result?: R },
): Promise<R> {
  const ledger = attemptLedger(ctx, {
    traceId,
    kind: spec.spanKind,
    entries,
    onProgress: spec.onProgress,
  });
  try {
    ran.result = await spec.run(entries, ledger.admit);
  } finally {
    for (const [providerId, micros] of await ledger.close()) charged.set(providerId, micros);
  }
  const outcome = ran.result;
  if (spec.succeeded(outcome) === 0 && ledger.databaseAway()) throw unavailableError("database");
  const own = spec.succeeded(outcome) === 0 ? spec.failure?.(outcome) : undefined;
  if (own) throw own;
  throwIfNothingSucceeded(
    { succeeded: spec.succeeded(outcome), providers_failed: outcome.providers_failed },
    ledger.exhausted,
  );
  return outcome;
}

/** A complete result is cached after the answer, like the reservations' closing (writeCached never throws). */
function cacheWriteStage<P extends ProviderRegistration, R extends ToolOutcome>(
  ctx: TenantContext,
  spec: ToolCallSpec<P, R>,
  cacheKey: string,
  outcome: R,
): void {
  if (!outcome.partial && !spec.uncached)
    ctx.pending.track(writeCached(ctx.kv, cacheKey, outcome, cacheTtlSeconds(ctx.env)));
}

export async function runCall<P extends ProviderRegistration, R extends ToolOutcome>(
  ctx: TenantContext,
  spec: ToolCallSpec<P, R>,
): Promise<ToolCallResult<R>> {
  const charged = new Map<string, number[]>();
  const trace: CallTrace = {
    id: randomUUID(),
    tool: spec.tool,
    spanKind: spec.spanKind,
    started: performance.now(),
    createdAt: ctx.now(),
    input: { ...(spec.cacheInput as object), providers: spec.wanted },
    secrets: [],
    charged,
  };
  const ran: { result?: R } = {};
  try {
    const entries = await selectStage(ctx, spec);
    trace.secrets = entries.flatMap((e) => (e.apiKey ? [e.apiKey] : []));
    const cacheKey = toolCacheKey(ctx, spec.tool, spec.cacheInput, entries);

    const hit = await cacheStage(ctx, spec, cacheKey);
    if (hit) {
      recordCallTrace(ctx, trace, { status: "ok", cacheHit: true, spans: [], summary: spec.summarize(hit) });
      return { ...hit, cache_hit: true, trace_id: trace.id };
    }

    const outcome = await providerStage(ctx, spec, entries, trace.id, charged, ran);
    cacheWriteStage(ctx, spec, cacheKey, outcome);
    const cacheHit = outcome.cached === true;
    recordCallTrace(ctx, trace, {
      status: outcome.partial ? "partial" : "ok",
      cacheHit,
      spans: outcome.spans,
      summary: { ...spec.summarize(outcome), ...failureSummary(outcome) },
    });
    return { ...outcome, cache_hit: cacheHit, trace_id: trace.id };
  } catch (error) {
    recordCallTrace(ctx, trace, {
      status: "error",
      cacheHit: false,
      spans: ran.result?.spans ?? [],
      summary: ran.result ? failureSummary(ran.result) : {},
      error,
    });
    throw error;
  }
}
