/**
 * Builds the trace of one tool call from what the call path knows (spans, charges, outcome) and hands it
 * to the sink. Everything free-form (input, error text) goes through redaction with the call's keys.
 */
import type { ProviderSpan } from "@/lib/engine/shared/types";
import { metrics } from "@/lib/observability/metrics";
import { redactText, redactValue } from "@/lib/observability/redact";
import { exportCall } from "@/lib/observability/tracing";
import type { SpanKind, SpanRecord, TraceRecord } from "@/lib/pipeline/capabilities";
import { actingUserId, type TenantContext } from "@/lib/pipeline/context";
import { ServiceError } from "@/lib/pipeline/errors";
import { isSkipped } from "@/lib/pipeline/providers/skipped";

export interface CallTrace {
  id: string;
  tool: string;
  spanKind: SpanKind;
  /** performance.now() when the call started. */
  started: number;
  createdAt: Date;
  input: unknown;
  /** Keys resolved for the call: never stored, searched for and blanked instead. */
  secrets: string[];
  /** Micro-dollars kept per provider (settled charges), one entry per kept attempt. */
  charged: ReadonlyMap<string, readonly number[]>;
}

export interface CallOutcome {
  status: TraceRecord["status"];
  cacheHit: boolean;
  spans: readonly ProviderSpan[];
  summary: Record<string, unknown>;
  error?: unknown;
}

/** An engine span as its trace stores it: whole milliseconds, its error redacted with the call's keys. */
function spanRecord(
  span: ProviderSpan,
  kind: SpanKind,
  costMicros: number,
  secrets: readonly string[],
): SpanRecord {
  return {
    provider: span.provider,
    kind,
    start_offset_ms: Math.round(span.start_offset_ms),
    duration_ms: Math.round(span.duration_ms),
    status: span.status,
    bytes: span.bytes,
    outcome: span.outcome,
    error: span.error === undefined ? undefined : redactText(span.error, secrets),
    cost_micros: costMicros,
  };
}

/**
 * Span records with their charges: each kept charge goes to a span of its provider, in order (skipped
 * attempts cost nothing). A provider asked several times in one call bills the same price each time, so
 * only which of its spans shows a refunded attempt's zero can differ from the attempt that was refunded.
 */
export function chargedSpanRecords<S extends ProviderSpan>(
  spans: readonly S[],
  kind: SpanKind | ((span: S) => SpanKind),
  charged: ReadonlyMap<string, readonly number[]>,
  secrets: readonly string[],
): SpanRecord[] {
  const charges = new Map([...charged].map(([provider, costs]) => [provider, [...costs]]));
  return spans.map((span) => {
    const costMicros = (isSkipped(span.outcome) ? undefined : charges.get(span.provider)?.shift()) ?? 0;
    return spanRecord(span, typeof kind === "function" ? kind(span) : kind, costMicros, secrets);
  });
}

function errorText(error: unknown): string {
  if (error instanceof ServiceError) return `${error.code}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}

/** Prometheus counters and the OpenTelemetry spans of a recorded call. */
function observe(record: TraceRecord): void {
  const m = metrics();
  m.toolCalls.inc({
    tool: record.tool,
    surface: record.surface,
    status: record.status,
    cache_hit: String(record.cacheHit),
  });
  m.toolCallSeconds.observe({ tool: record.tool, surface: record.surface }, record.durationMs / 1000);
  exportCall({
    name: "searchmux.tool_call",
    startedAt: record.createdAt,
    durationMs: record.durationMs,
    error: record.status === "error",
    attributes: {
      "searchmux.tool": record.tool,
      "searchmux.surface": record.surface,
      "searchmux.tenant_id": record.tenantId,
      "searchmux.trace_id": record.id,
      "searchmux.status": record.status,
      "searchmux.cache_hit": record.cacheHit,
    },
    children: record.spans.map((span) => ({
      name: `searchmux.provider.${span.kind}`,
      startOffsetMs: span.start_offset_ms,
      durationMs: span.duration_ms,
      error: span.outcome === "error" || span.outcome === "timeout",
      attributes: {
        "searchmux.provider": span.provider,
        "searchmux.outcome": span.outcome,
        ...(span.status === undefined ? {} : { "http.response.status_code": span.status }),
      },
    })),
  });
}

export function recordCallTrace(ctx: TenantContext, call: CallTrace, outcome: CallOutcome): void {
  const durationMs = Math.round(performance.now() - call.started);
  const spans: SpanRecord[] = outcome.cacheHit
    ? [
        {
          provider: "*",
          kind: call.spanKind,
          start_offset_ms: 0,
          duration_ms: durationMs,
          outcome: "cache_hit",
          cost_micros: 0,
        },
      ]
    : chargedSpanRecords(outcome.spans, call.spanKind, call.charged, call.secrets);
  const record: TraceRecord = {
    id: call.id,
    tenantId: ctx.tenantId,
    tool: call.tool,
    surface: ctx.surface,
    tokenId: ctx.actor.kind === "token" ? ctx.actor.tokenId : null,
    tokenName: ctx.actor.kind === "token" ? ctx.actor.tokenName : null,
    userId: actingUserId(ctx.actor),
    status: outcome.status,
    durationMs,
    cacheHit: outcome.cacheHit,
    input: redactValue(call.input, call.secrets),
    resultSummary: redactValue(outcome.summary, call.secrets),
    costMicros: [...call.charged.values()].flat().reduce((sum, micros) => sum + micros, 0),
    error: outcome.error === undefined ? null : redactText(errorText(outcome.error), call.secrets),
    createdAt: call.createdAt,
    spans,
  };
  ctx.traces.record(record);
  observe(record);
}
