/**
 * The one path every paid tool call of a tenant takes (web_search, answer, paper_search, fetch):
 * the tenant's providers (own key, else operator key; keyless always), the caller's subset, the per-tenant
 * result cache, one budget admission per provider call (a refused provider is skipped with
 * `budget_exhausted`), each charge settled or refunded by the call's outcome, a clear error when nothing
 * succeeded, and one trace per call (hit, success or failure). Partial results are never cached.
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
import { cacheTtlSeconds, readCached, resultCacheKey, writeCached } from "./cache/result-cache";
import type { TenantContext } from "./context";
import { attemptLedger, type OnProgress } from "./provider-attempts";
import { selectProviders, throwIfNothingSucceeded } from "./providers/selection";
import { tenantProviders } from "./providers/tenant-providers";
import { type CallTrace, recordCallTrace } from "./traces/call-trace";
import type { SpanKind } from "./traces/trace-sink";

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
  /** Counts and top URLs for the trace. */
  summarize(result: R): Record<string, unknown>;
}

/** What every tool's result reports: per-provider failures and spans, and whether any provider fell short. */
interface ToolOutcome {
  providers_failed: ReadonlyArray<Pick<ProviderFailure, "provider"> & { reason: string }>;
  spans: readonly ProviderSpan[];
  /** Results with failures are not cached; a tool without the notion (fetch) is complete when it returns. */
  partial?: boolean;
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

export async function runToolCall<P extends ProviderRegistration, R extends ToolOutcome>(
  ctx: TenantContext,
  spec: ToolCallSpec<P, R>,
): Promise<ToolCallResult<R>> {
  const charged = new Map<string, number>();
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
  let result: R | undefined;
  try {
    const { available } = await tenantProviders(ctx, spec.registry);
    const entries = selectProviders(
      spec.wanted,
      new Set(spec.registry.map((p) => p.id)),
      available,
      spec.tool,
    );
    spec.authorize?.(entries);
    trace.secrets = entries.flatMap((e) => (e.apiKey ? [e.apiKey] : []));

    const cacheKey = toolCacheKey(ctx, spec.tool, spec.cacheInput, entries);
    if (!spec.noCache && !spec.uncached) {
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
        recordCallTrace(ctx, trace, {
          status: "ok",
          cacheHit: true,
          spans: [],
          summary: spec.summarize(hit),
        });
        return { ...hit, cache_hit: true, trace_id: trace.id };
      }
    }

    const ledger = attemptLedger(ctx, {
      traceId: trace.id,
      kind: spec.spanKind,
      entries,
      onProgress: spec.onProgress,
    });
    // Closed whether or not run returns: a step that throws after admission must not leave billed calls
    // open for the sweep to refund; attempts that never ran are refunded at once.
    let outcome: R;
    try {
      outcome = await spec.run(entries, ledger.admit);
    } finally {
      for (const [providerId, micros] of await ledger.close()) charged.set(providerId, micros);
    }
    result = outcome;
    throwIfNothingSucceeded(
      { succeeded: spec.succeeded(outcome), providers_failed: outcome.providers_failed },
      ledger.exhausted,
    );
    // After the answer, like closing the reservations (writeCached never throws).
    if (!outcome.partial && !spec.uncached)
      ctx.usage.track(writeCached(ctx.kv, cacheKey, outcome, cacheTtlSeconds(ctx.env)));
    recordCallTrace(ctx, trace, {
      status: outcome.partial ? "partial" : "ok",
      cacheHit: false,
      spans: outcome.spans,
      summary: { ...spec.summarize(outcome), ...failureSummary(outcome) },
    });
    return { ...outcome, cache_hit: false, trace_id: trace.id };
  } catch (error) {
    recordCallTrace(ctx, trace, {
      status: "error",
      cacheHit: false,
      spans: result?.spans ?? [],
      summary: result ? failureSummary(result) : {},
      error,
    });
    throw error;
  }
}
