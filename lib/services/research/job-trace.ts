/**
 * A research job's traces: each sub-call (a tool's verb, traced on its own) noted in the job's state, and
 * the job's own trace, which lists them and holds the job's model calls as spans.
 */

import type { TraceRecord } from "@/lib/pipeline/capabilities";
import type { TenantContext } from "@/lib/pipeline/context";
import { recordCallTrace } from "@/lib/pipeline/traces/call-trace";
import { withStageTrace } from "@/lib/services/search/stage-trace";
import type { JobRow } from "./job-lease";
import type { ResearchState, SubCall } from "./research-state";

/** A sub-call as the job's state lists it, from the trace the call recorded. */
export function subCall(trace: TraceRecord): SubCall {
  const input = trace.input as { query?: string; url?: string; urls?: string[] };
  const label = input.query ?? input.url ?? (input.urls ? `${input.urls.length} pages` : trace.tool);
  return {
    tool: trace.tool,
    trace_id: trace.id,
    label,
    status: trace.status,
    duration_ms: trace.durationMs,
    cache_hit: trace.cacheHit,
    cost_micros: trace.costMicros,
  };
}

/** The job's own trace: its model calls as spans, its sub-calls (each traced on its own) in the summary. */
export function recordJobTrace(
  ctx: TenantContext,
  row: JobRow,
  state: ResearchState,
  origin: number,
  outcome: { status: "ok" | "partial" | "error"; error?: string },
): string {
  const id = crypto.randomUUID();
  // The model spans are already trace records with their charges: they join the record as stage spans do.
  const staged = withStageTrace(ctx);
  staged.add(state.spans);
  recordCallTrace(
    staged.ctx,
    {
      id,
      tool: "research",
      spanKind: "llm",
      started: origin,
      createdAt: row.startedAt ?? row.createdAt,
      input: row.input,
      secrets: [],
      charged: new Map(),
    },
    {
      status: outcome.status,
      cacheHit: false,
      spans: [],
      summary: {
        job_id: row.id,
        planner: state.plan?.planner,
        queries: state.plan?.queries,
        pages: state.pages?.map((page) => ({ url: page.url, ...("error" in page && { error: page.error }) })),
        sub_calls: state.sub_calls,
        ...(state.stop && { stop_reason: state.stop.reason }),
        cost_micros: state.cost_micros,
      },
      ...(outcome.error !== undefined && { error: new Error(outcome.error) }),
    },
  );
  return id;
}
