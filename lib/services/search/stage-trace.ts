/**
 * One trace per web_search call, research stages included. runCall records the call's trace with the
 * search spans and charges; the stages' fetch and model spans (their own kinds, their charges) are added
 * to that same record on its way to the trace sink.
 */
import type { StageSpan } from "@/lib/engine/grounding/types";
import type { SpanRecord, TraceSink } from "@/lib/pipeline/capabilities";
import type { TenantContext } from "@/lib/pipeline/context";
import { chargedSpanRecords } from "@/lib/pipeline/traces/call-trace";

export interface StageTrace {
  /** The context to run the tool call with: its trace passes through here. */
  ctx: TenantContext;
  add(spans: readonly SpanRecord[]): void;
}

export function withStageTrace(ctx: TenantContext): StageTrace {
  const added: SpanRecord[] = [];
  const sink = ctx.traces;
  const traces: TraceSink = {
    record: (trace) =>
      sink.record({
        ...trace,
        spans: [...trace.spans, ...added],
        costMicros: trace.costMicros + added.reduce((sum, span) => sum + span.cost_micros, 0),
      }),
    flush: () => sink.flush(),
    settled: () => sink.settled(),
    pending: () => sink.pending(),
  };
  return { ctx: { ...ctx, traces }, add: (spans) => added.push(...spans) };
}

/**
 * Span records for the trace. Each kept charge goes to a span of its provider, in attempt order (spans of
 * keyless steps, refused or refunded attempts cost nothing); errors are redacted with the stage's keys.
 */
export function stageSpanRecords(
  spans: readonly StageSpan[],
  kept: ReadonlyMap<string, readonly number[]>,
  secrets: readonly string[],
): SpanRecord[] {
  return chargedSpanRecords(spans, (span) => span.kind, kept, secrets);
}
