/**
 * A research job as the playground shows it: its state and stop reason in words, and the report prepared
 * for rendering (its citations become links as it renders: citation-markers.ts). Client components import
 * this at run time: types only from the services.
 */
import type { ResearchJobView, ResearchStatus, StopReason } from "@/lib/services/research/job-view";

/** How often the playground reads a job that is queued or running. */
export const RESEARCH_POLL_MS = 1_500;

export const isActive = (status: ResearchStatus) => status === "queued" || status === "running";

export const STATUS_WORDS: Record<ResearchStatus, string> = {
  queued: "queued",
  running: "running",
  succeeded: "done",
  failed: "failed",
  cancelled: "cancelled",
};

/** Why a job stopped early, as a sentence. */
export const STOP_REASONS: Record<StopReason, string> = {
  budget_exhausted: "It stopped early because a budget ran out: the report covers what was found by then.",
  cost_limit: "It stopped early at its cost limit (max cost): the report covers what was found by then.",
  deadline: "It stopped early at its time limit: the report covers what was found by then.",
};

/** "step 2 of 6", or nothing before the job has a plan. */
export function stepOf(progress: ResearchJobView["progress"]): string {
  return progress.total > 0 ? `step ${Math.min(progress.done + 1, progress.total)} of ${progress.total}` : "";
}

/** The report's own closing list, which the playground replaces with the sources and where each was found. */
const SOURCES_HEADING = "\n## Sources\n";

/** The report for rendering: without its own sources list (shown apart, with where each was found). */
export function reportForDisplay(report: string): string {
  const end = report.lastIndexOf(SOURCES_HEADING);
  return end === -1 ? report : report.slice(0, end);
}
