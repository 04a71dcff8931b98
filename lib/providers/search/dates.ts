/** Date windows for providers that filter by publication date instead of a relative time range. */
import type { ProviderCall, TimeRange } from "@/lib/engine/search/types";

const RANGE_DAYS: Readonly<Record<TimeRange, number>> = { day: 1, week: 7, month: 31, year: 365 };

export interface DateWindow {
  /** Inclusive lower bound, YYYY-MM-DD. */
  from?: string;
  /** Inclusive upper bound, YYYY-MM-DD. */
  to?: string;
}

/**
 * Explicit after:/before: dates win over `time_range` (mixing them can produce an empty window);
 * otherwise the window starts `time_range` ago.
 */
export function dateWindow(
  call: Pick<ProviderCall, "query" | "options">,
  now: Date = new Date(),
): DateWindow {
  if (hasExplicitDates(call)) return { from: call.query.after, to: call.query.before };
  const { timeRange } = call.options;
  return timeRange ? { from: isoDate(new Date(now.getTime() - RANGE_DAYS[timeRange] * 86_400_000)) } : {};
}

/** True when the query carries explicit after:/before: dates (they take precedence over time_range). */
export function hasExplicitDates(call: Pick<ProviderCall, "query">): boolean {
  return call.query.after !== undefined || call.query.before !== undefined;
}

/** "YYYY-MM-DDtoYYYY-MM-DD" (Brave and You.com `freshness`); open ends become the epoch / today. */
export function dateRangeParam(window: DateWindow, now: Date = new Date()): string {
  return `${window.from ?? "1970-01-01"}to${window.to ?? isoDate(now)}`;
}

/** YYYY-MM-DD -> MM/DD/YYYY (Perplexity, Google `cdr`). */
export function usDate(isoDay: string): string {
  const [year, month, day] = isoDay.split("-");
  return `${month}/${day}/${year}`;
}

function isoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}
