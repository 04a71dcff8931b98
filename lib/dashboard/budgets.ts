/** How budgets read in the dashboard. */

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
