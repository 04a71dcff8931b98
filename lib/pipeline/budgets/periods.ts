/**
 * Budget periods in UTC: a day, a month starting on an anchor day (clamped to the month's last day,
 * so anchor 30 starts February's period on the 28th or 29th), or the whole lifetime. A new period is a
 * new counter row, keyed by the period's start, so nothing ever has to be reset.
 */
import type { Period } from "@/lib/pipeline/capabilities";

const isoDate = (d: Date) => d.toISOString().slice(0, 10);
const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month + 1, 0)).getUTCDate();

/** Start of the monthly period containing `at` for a given anchor day (1–31). */
function monthStart(at: Date, anchorDay: number): Date {
  let year = at.getUTCFullYear();
  let month = at.getUTCMonth();
  if (at.getUTCDate() < Math.min(anchorDay, daysIn(year, month))) {
    month -= 1;
    if (month < 0) {
      month = 11;
      year -= 1;
    }
  }
  return new Date(Date.UTC(year, month, Math.min(anchorDay, daysIn(year, month))));
}

function nextMonthStart(start: Date, anchorDay: number): Date {
  const year = start.getUTCMonth() === 11 ? start.getUTCFullYear() + 1 : start.getUTCFullYear();
  const month = (start.getUTCMonth() + 1) % 12;
  return new Date(Date.UTC(year, month, Math.min(anchorDay, daysIn(year, month))));
}

/** `day:2026-11-22`, `month:2026-11-01` (the period's first day), or `lifetime`. */
export function periodKey(period: Period, at: Date, anchorDay = 1): string {
  if (period === "lifetime") return "lifetime";
  if (period === "day") return `day:${isoDate(at)}`;
  return `month:${isoDate(monthStart(at, anchorDay))}`;
}

/** When the period containing `at` ends (null for lifetime). */
export function periodResetsAt(period: Period, at: Date, anchorDay = 1): Date | null {
  if (period === "lifetime") return null;
  if (period === "day") return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() + 1));
  return nextMonthStart(monthStart(at, anchorDay), anchorDay);
}
