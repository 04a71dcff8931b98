/**
 * Formatting for the dashboard, deterministic on server and client (fixed locale, UTC), so server-rendered
 * text never differs from what hydration expects.
 */
const LOCALE = "en-US";

const integer = new Intl.NumberFormat(LOCALE, { maximumFractionDigits: 0 });
const compact = new Intl.NumberFormat(LOCALE, { notation: "compact", maximumFractionDigits: 1 });

export const formatCount = (n: number) => integer.format(n);
export const formatCompact = (n: number) => compact.format(n);

/** Dollars with exactly `digits` decimal places. */
const usdWith = (usd: number, digits: number) =>
  new Intl.NumberFormat(LOCALE, {
    style: "currency",
    currency: "USD",
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(usd);

/** Dollars with cents, and sub-cent amounts with enough digits to be non-zero. */
export const formatUsd = (usd: number) => usdWith(usd, usd !== 0 && Math.abs(usd) < 0.01 ? 4 : 2);

/** Dollars with cents and up to four decimal places, for per-call prices: $0.013, $0.0002, $1.50. */
export const formatUsdPrice = (usd: number) =>
  new Intl.NumberFormat(LOCALE, {
    style: "currency",
    currency: "USD",
    minimumFractionDigits: 2,
    maximumFractionDigits: 4,
  }).format(usd);

/** Decimal places of a number as written: 0.005 has 3, 2.5 has 1. */
const decimals = (n: number) => String(n).split(".")[1]?.length ?? 0;

/** Dollars for a chart axis whose ticks are `step` apart: every tick with as many cents digits as the step needs. */
export const formatUsdTick = (usd: number, step: number) => usdWith(usd, Math.max(2, decimals(step)));

export const formatPercent = (ratio: number) =>
  new Intl.NumberFormat(LOCALE, { style: "percent", maximumFractionDigits: 0 }).format(ratio);

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

const dateTime = new Intl.DateTimeFormat(LOCALE, {
  timeZone: "UTC",
  year: "numeric",
  month: "short",
  day: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
});
const dateOnly = new Intl.DateTimeFormat(LOCALE, { timeZone: "UTC", month: "short", day: "numeric" });

const dateWithYear = new Intl.DateTimeFormat(LOCALE, {
  timeZone: "UTC",
  year: "numeric",
  month: "short",
  day: "numeric",
});

export const formatDateTime = (at: Date | string) => `${dateTime.format(new Date(at))} UTC`;

/** A publication date (ISO 8601) as "Mar 4, 2026"; text that is no date as it came. */
export function formatDate(at: string): string {
  const date = new Date(at);
  return Number.isNaN(date.getTime()) ? at : dateWithYear.format(date);
}
export const formatDay = (at: Date | string) => dateOnly.format(new Date(at));

const UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ["year", 365 * 86_400_000],
  ["month", 30 * 86_400_000],
  ["day", 86_400_000],
  ["hour", 3_600_000],
  ["minute", 60_000],
];
const relative = new Intl.RelativeTimeFormat(LOCALE, { numeric: "auto" });

/** "in 5 hours", "3 days ago", "just now", relative to `now`. */
export function formatRelative(at: Date | string, now: Date): string {
  const delta = new Date(at).getTime() - now.getTime();
  for (const [unit, ms] of UNITS) {
    if (Math.abs(delta) >= ms) return relative.format(Math.round(delta / ms), unit);
  }
  return "just now";
}
