import type { SubCall } from "@/lib/services/research/research-state";
import { plural } from "@/lib/wording";

/** What a research job's trace summary holds (run-research-job.ts), read defensively: it is stored JSON. */
export interface ResearchTraceSummary {
  jobId: string | null;
  planner: string | null;
  queries: string[];
  pages: Array<{ url: string; error?: string }>;
  subCalls: SubCall[];
  stopReason: string | null;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null;
const stringOr = (value: unknown) => (typeof value === "string" ? value : null);
const records = (value: unknown) => (Array.isArray(value) ? value.filter(isRecord) : []);

/** The research parts of a trace's summary; null for another tool's trace. */
export function researchSummary(tool: string, summary: unknown): ResearchTraceSummary | null {
  if (tool !== "research" || !isRecord(summary)) return null;
  return {
    jobId: stringOr(summary.job_id),
    planner: stringOr(summary.planner),
    queries: Array.isArray(summary.queries) ? summary.queries.filter((q) => typeof q === "string") : [],
    pages: records(summary.pages).flatMap((page) =>
      typeof page.url === "string"
        ? [{ url: page.url, ...(typeof page.error === "string" && { error: page.error }) }]
        : [],
    ),
    subCalls: records(summary.sub_calls).filter(
      (call): call is Record<string, unknown> & SubCall =>
        typeof call.tool === "string" && typeof call.trace_id === "string",
    ),
    stopReason: stringOr(summary.stop_reason),
  };
}

/** A trace's result summary (counts, failures; its shape varies by tool) as one short line. */
export function describeSummary(summary: unknown): string {
  if (typeof summary !== "object" || summary === null) return "";
  const s = summary as Record<string, unknown>;
  const parts: string[] = [];
  if (typeof s.results === "number") parts.push(plural(s.results, "result"));
  if (Array.isArray(s.answers)) parts.push(plural(s.answers.length, "answer"));
  if (typeof s.chars === "number") parts.push(`${plural(s.chars, "character")} via ${String(s.provider)}`);
  if (Array.isArray(s.failed) && s.failed.length > 0)
    parts.push(`${plural(s.failed.length, "provider")} failed`);
  // web_search: the providers it did not ask (auto mode, budgets, breakers), and why auto asked whom it asked.
  if (Array.isArray(s.skipped) && s.skipped.length > 0)
    parts.push(`${plural(s.skipped.length, "provider")} skipped`);
  if (typeof s.auto === "string") parts.push(`auto: ${s.auto}`);
  if (Array.isArray(s.queries)) parts.push(plural(s.queries.length, "search", "searches"));
  if (Array.isArray(s.pages)) parts.push(plural(s.pages.length, "page"));
  if (Array.isArray(s.sub_calls)) parts.push(plural(s.sub_calls.length, "sub-call"));
  if (typeof s.stop_reason === "string") parts.push(`stopped early: ${s.stop_reason.replace(/_/g, " ")}`);
  return parts.join(" · ");
}
