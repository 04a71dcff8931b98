import type { UsageDay } from "@/lib/services/usage/usage-history";

export interface UsageSummary {
  callsToday: number;
  /** Today's tool calls by tool, most called first. */
  toolsToday: Array<{ tool: string; calls: number }>;
  callsThisMonth: number;
  /** Share of this month's tool calls the cache answered; null before the first call. */
  cacheHitRatio: number | null;
  requestsThisMonth: number;
  usdThisMonth: number;
}

/** Today's and this UTC month's figures from a day-by-day usage history that reaches back to the 1st. */
export function summarizeUsage(days: readonly UsageDay[], now: Date): UsageSummary {
  const today = now.toISOString().slice(0, 10);
  const month = today.slice(0, 7);
  const thisMonth = days.filter((day) => day.date.startsWith(month));
  const sum = (pick: (day: UsageDay) => number) => thisMonth.reduce((total, day) => total + pick(day), 0);
  const calls = sum((day) => day.calls);
  const todays = days.find((day) => day.date === today);
  return {
    callsToday: todays?.calls ?? 0,
    toolsToday: Object.entries(todays?.tools ?? {})
      .map(([tool, count]) => ({ tool, calls: count }))
      .sort((a, b) => b.calls - a.calls || a.tool.localeCompare(b.tool)),
    callsThisMonth: calls,
    cacheHitRatio: calls === 0 ? null : sum((day) => day.cache_hits) / calls,
    requestsThisMonth: sum((day) => day.requests),
    usdThisMonth: sum((day) => day.usd),
  };
}
