/** A research job as every transport shows it (REST, MCP task results, the playground, the CLI). */

import type { researchJobs } from "@/lib/db/schema";
import type { StructuredData } from "@/lib/engine/research/structured-data";
import type { ResearchSource } from "@/lib/engine/research/types";
import { microsToUsd } from "@/lib/pipeline/budgets/units";
import type { ResearchInput } from "./input";

export type ResearchStatus = (typeof researchJobs.$inferSelect)["status"];
type ResearchPhase = "queued" | "planning" | "searching" | "reading" | "writing" | "done";

export interface ResearchProgress {
  phase: ResearchPhase;
  /** One line for people: what the job is doing now. */
  message: string;
  /** Steps done and planned (searches, the reading, the report): done ≤ total. */
  done: number;
  total: number;
}

/** Why a job stopped early with a partial report. */
export type StopReason = "budget_exhausted" | "cost_limit" | "deadline";

export interface ResearchJobView {
  id: string;
  status: ResearchStatus;
  question: string;
  progress: ResearchProgress;
  report: string | null;
  sources: ResearchSource[];
  partial: boolean;
  stop_reason: StopReason | null;
  error: string | null;
  trace_id: string | null;
  cost_usd: number;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  /** With output_schema, once the job succeeded: values valid against it, null when none could be made. */
  data?: unknown;
  /** JSON pointer of each value in data → the URLs of the pages read that state it. */
  data_citations?: Record<string, string[]>;
  data_error?: string;
}

/** What every job's view has, research or crawl: what MCP tasks and the transports read of any job. */
export interface JobStatusView {
  id: string;
  status: ResearchStatus;
  progress: { message: string };
  error: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

export const QUEUED: ResearchProgress = {
  phase: "queued",
  message: "waiting for a worker",
  done: 0,
  total: 0,
};

export const isFinished = (status: ResearchStatus) =>
  status === "succeeded" || status === "failed" || status === "cancelled";

type JobRow = typeof researchJobs.$inferSelect;

export function toJobView(row: JobRow): ResearchJobView {
  const state = row.state as { cost_micros?: number; data?: StructuredData };
  return {
    id: row.id,
    status: row.status,
    question: (row.input as ResearchInput).question,
    progress: { ...QUEUED, ...(row.progress as Partial<ResearchProgress>) },
    report: row.report,
    sources: (row.sources as ResearchSource[] | null) ?? [],
    partial: row.partial,
    stop_reason: row.stopReason as StopReason | null,
    error: row.error,
    trace_id: row.traceId,
    cost_usd: microsToUsd(state.cost_micros ?? 0),
    created_at: row.createdAt.toISOString(),
    started_at: row.startedAt?.toISOString() ?? null,
    finished_at: row.finishedAt?.toISOString() ?? null,
    ...dataFields(state.data),
  };
}

function dataFields(data: StructuredData | undefined) {
  if (data === undefined) return {};
  if ("error" in data) return { data: null, data_citations: {}, data_error: data.error };
  return { data: data.data, data_citations: data.citations };
}
