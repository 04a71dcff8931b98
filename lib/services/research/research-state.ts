/**
 * A research job's checkpoint, stored on its row after every step: the plan, each search's results or
 * error, the pages read, the sub-calls made and what they cost. A job taken over by another instance
 * starts from it and repeats no finished step.
 */
import type { StructuredData } from "@/lib/engine/research/structured-data";
import type { ReadPage, SubQueryResults } from "@/lib/engine/research/types";
import type { SpanRecord } from "@/lib/pipeline/capabilities";
import type { StopReason } from "./job-view";

export type SearchStep = { results: SubQueryResults["results"] } | { error: string };
export type PageStep = ReadPage | (Omit<ReadPage, "content"> & { error: string });

/** A call the job made through a tool's verb, as its own trace records it. */
export interface SubCall {
  tool: string;
  trace_id: string;
  /** The query or the URLs, for people. */
  label: string;
  status: "ok" | "partial" | "error";
  duration_ms: number;
  cache_hit: boolean;
  cost_micros: number;
}

export interface ResearchState {
  plan?: { queries: string[]; planner: "model" | "variants" };
  searches: Record<string, SearchStep>;
  pages?: PageStep[];
  sub_calls: SubCall[];
  /** The job's own model calls, offsets from when it first started. */
  spans: SpanRecord[];
  /** What the sub-calls and model calls have cost so far. */
  cost_micros: number;
  stop?: { reason: StopReason; detail: string };
  /** With output_schema: the data and its citations, or why there is none. */
  data?: StructuredData;
}

/** A model span as checkpoints written before spans took the trace's snake case (November 2026) hold it. */
interface CamelCaseSpan
  extends Omit<SpanRecord, "start_offset_ms" | "duration_ms" | "status" | "cost_micros"> {
  startOffsetMs: number;
  durationMs: number;
  httpStatus?: number;
  costMicros: number;
}

/** A job taken over after an upgrade carries its older spans into its trace too. */
function spanOf(stored: SpanRecord | CamelCaseSpan): SpanRecord {
  if (!("costMicros" in stored)) return stored;
  const { startOffsetMs, durationMs, httpStatus, costMicros, ...rest } = stored;
  return {
    ...rest,
    start_offset_ms: startOffsetMs,
    duration_ms: durationMs,
    status: httpStatus,
    cost_micros: costMicros,
  };
}

export function stateOf(stored: unknown): ResearchState {
  const state = (stored ?? {}) as Omit<Partial<ResearchState>, "spans"> & {
    spans?: Array<SpanRecord | CamelCaseSpan>;
  };
  return {
    ...state,
    searches: state.searches ?? {},
    sub_calls: state.sub_calls ?? [],
    spans: (state.spans ?? []).map(spanOf),
    cost_micros: state.cost_micros ?? 0,
  };
}

export const isReadPage = (page: PageStep): page is ReadPage => !("error" in page);
export const hasResults = (step: SearchStep | undefined): step is { results: SubQueryResults["results"] } =>
  step !== undefined && "results" in step;
