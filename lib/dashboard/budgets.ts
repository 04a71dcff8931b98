/** How budgets read in the dashboard. */
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
