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

const ISO_WITH_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i;
const ISO_WITHOUT_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/;
const RELATIVE = /^(\d+|an?)\s+(second|minute|hour|day|week|month|year)s?\s+ago$/i;
const UNIT_MS: Readonly<Record<string, number>> = {
  second: 1_000,
  minute: 60_000,
  hour: 3_600_000,
  day: 86_400_000,
  week: 7 * 86_400_000,
  month: 30 * 86_400_000,
  year: 365 * 86_400_000,
};

/**
 * A provider's publication date as ISO 8601 where it can be read: ISO with a zone as given, ISO without one
 * as UTC (Brave's page_age), "3 hours ago" (Google news via Serper and SerpApi) from `now`, any other date
 * Date.parse reads ("Jan 5, 2025"); anything else as the provider wrote it.
 */
export function publishedDate(text: string, now: Date = new Date()): string {
  const value = text.trim();
  if (ISO_WITH_ZONE.test(value)) return value;
  if (ISO_WITHOUT_ZONE.test(value)) return new Date(`${value}Z`).toISOString();
  const relative = RELATIVE.exec(value);
  if (relative) {
    const count = /^\d+$/.test(relative[1] ?? "") ? Number(relative[1]) : 1;
    const unit = UNIT_MS[(relative[2] ?? "").toLowerCase()] ?? 0;
    return new Date(now.getTime() - count * unit).toISOString();
  }
  const parsed = Date.parse(value);
  return Number.isNaN(parsed) ? value : new Date(parsed).toISOString();
}
