/**
 * Formatting for the dashboard, deterministic on server and client (fixed locale, UTC), so server-rendered
 * text never differs from what hydration expects.
 */
const LOCALE = "en-US";

const integer = new Intl.NumberFormat(LOCALE, { maximumFractionDigits: 0 });
const compact = new Intl.NumberFormat(LOCALE, { notation: "compact", maximumFractionDigits: 1 });

export const formatCount = (n: number) => integer.format(n);
export const formatCompact = (n: number) => compact.format(n);

/** Dollars with cents, and sub-cent amounts with enough digits to be non-zero. */
export function formatUsd(usd: number): string {
  const digits = usd !== 0 && Math.abs(usd) < 0.01 ? 4 : 2;
  return new Intl.NumberFormat(LOCALE, {
    style: "currency",
    currency: "USD",
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(usd);
}

/** Dollars for chart axes: three significant digits, so $0.015 and $0.02 stay apart. */
export const formatUsdTick = (usd: number) =>
  new Intl.NumberFormat(LOCALE, { style: "currency", currency: "USD", maximumSignificantDigits: 3 }).format(
    usd,
  );

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

export const formatDateTime = (at: Date | string) => `${dateTime.format(new Date(at))} UTC`;
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
