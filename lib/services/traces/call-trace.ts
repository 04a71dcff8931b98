/**
 * Builds the trace of one tool call from what the call path knows (spans, charges, outcome) and hands it
 * to the sink. Everything free-form (input, error text) goes through redaction with the call's keys.
 */
import type { ProviderSpan } from "../../engine/shared/types";
import type { TenantContext } from "../context";
import { ServiceError } from "../errors";
import { redactText, redactValue } from "./redact";
import type { SpanKind, SpanOutcome, TraceRecord } from "./trace-sink";

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
  /** Micro-dollars kept per provider (settled charges). */
  charged: ReadonlyMap<string, number>;
}

export interface CallOutcome {
  status: TraceRecord["status"];
  cacheHit: boolean;
  spans: readonly ProviderSpan[];
  summary: Record<string, unknown>;
  error?: unknown;
}

function errorText(error: unknown): string {
  if (error instanceof ServiceError) return `${error.code}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}

export function recordCallTrace(ctx: TenantContext, call: CallTrace, outcome: CallOutcome): void {
  const durationMs = Math.round(performance.now() - call.started);
  const spans = outcome.cacheHit
    ? [
        {
          provider: "*",
          kind: call.spanKind,
          startOffsetMs: 0,
          durationMs,
          outcome: "cache_hit" as SpanOutcome,
          costMicros: 0,
        },
      ]
    : outcome.spans.map((span) => ({
        provider: span.provider,
        kind: call.spanKind,
        startOffsetMs: Math.round(span.start_offset_ms),
        durationMs: Math.round(span.duration_ms),
        httpStatus: span.status,
        bytes: span.bytes,
        outcome: span.outcome,
        error: span.error === undefined ? undefined : redactText(span.error, call.secrets),
        costMicros: call.charged.get(span.provider) ?? 0,
      }));
  ctx.traces.record({
    id: call.id,
    tenantId: ctx.tenantId,
    tool: call.tool,
    surface: ctx.surface,
    tokenId: ctx.actor.kind === "token" ? ctx.actor.tokenId : null,
    tokenName: ctx.actor.kind === "token" ? ctx.actor.tokenName : null,
    status: outcome.status,
    durationMs,
    cacheHit: outcome.cacheHit,
    input: redactValue(call.input, call.secrets),
    resultSummary: redactValue(outcome.summary, call.secrets),
    costMicros: [...call.charged.values()].reduce((sum, micros) => sum + micros, 0),
    error: outcome.error === undefined ? null : redactText(errorText(outcome.error), call.secrets),
    createdAt: call.createdAt,
    spans,
  });
}
