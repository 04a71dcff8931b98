/** How budgets read in the dashboard. */
import { plural } from "@/lib/wording";
import { formatUsd } from "./format";

const PERIOD = { day: "per day", month: "per month", lifetime: "lifetime" } as const;

const providerLabel = (provider: string) => (provider === "*" ? "All providers" : provider);

const metricLabel = (metric: "requests" | "usd") => (metric === "usd" ? "USD" : "requests");

/** "tavily · requests per month", "All providers · USD per day". */
export function budgetLabel(budget: {
  provider: string;
  metric: "requests" | "usd";
  period: "day" | "month" | "lifetime";
}): string {
  return `${providerLabel(budget.provider)} · ${metricLabel(budget.metric)} ${PERIOD[budget.period]}`;
}

const SHORT_PERIOD = { day: "day", month: "month", lifetime: "ever" } as const;

/** "tavily · req/month", "All providers · $/day": fits a chart axis. */
export function budgetShortLabel(budget: Parameters<typeof budgetLabel>[0]): string {
  return `${providerLabel(budget.provider)} · ${budget.metric === "usd" ? "$" : "req"}/${SHORT_PERIOD[budget.period]}`;
}

interface CapBudget {
  provider: string;
  metric: "requests" | "usd";
  period: "day" | "month" | "lifetime";
  limit: number;
  remaining: number;
}

/**
 * The overview's line on the monthly spend cap across all providers (a new workspace's default budget):
 * "Cap $10.00 a month · $9.40 left", or that there is none.
 */
export function spendCapHint(budgets: readonly CapBudget[]): string {
  const cap = budgets.find((b) => b.provider === "*" && b.metric === "usd" && b.period === "month");
  if (!cap) return "Provider costs · no monthly cap";
  return `Cap ${formatUsd(cap.limit)} a month · ${formatUsd(cap.remaining)} left`;
}

/**
 * The Budgets page's caption of its spend chart, from the very values the chart draws: the days' spend
 * (their total and the most in one day) and the daily cap across all providers, the dashed line, if any.
 * "$0.0080 in the last 30 days, at most $0.0080 in a day; the dashed line is the daily cap across all
 * providers, $2.00."
 */
export function spendCaption(days: ReadonlyArray<{ usd: number }>, dailyCapUsd: number | undefined): string {
  const period = `the last ${plural(days.length, "day")}`;
  const total = days.reduce((sum, day) => sum + day.usd, 0);
  const most = Math.max(0, ...days.map((day) => day.usd));
  const spent =
    total === 0
      ? `Nothing spent in ${period}`
      : `${formatUsd(total)} in ${period}, at most ${formatUsd(most)} in a day`;
  const cap =
    dailyCapUsd === undefined
      ? "no daily cap across all providers (a USD budget per UTC day for all providers draws one here)"
      : `the dashed line is the daily cap across all providers, ${formatUsd(dailyCapUsd)}`;
  return `${spent}; ${cap}.`;
}
