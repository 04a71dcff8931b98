import type { UsageDay } from "@/lib/services/usage/usage-history";
import type { ChartSeries } from "./chart-series";

const OTHER = "other";

/**
 * Provider requests per day as chart rows, one column per busiest provider and the rest summed as
 * "other", so a stacked chart stays readable however many providers a workspace uses.
 */
export function requestsByProvider(days: readonly UsageDay[], top = 4) {
  const totals = new Map<string, number>();
  for (const day of days) {
    for (const [provider, figures] of Object.entries(day.providers)) {
      totals.set(provider, (totals.get(provider) ?? 0) + figures.requests);
    }
  }
  const busiest = [...totals]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([provider]) => provider);
  const rows = days.map((day) => {
    const row: Record<string, string | number> = { date: day.date, [OTHER]: 0 };
    for (const provider of busiest) row[provider] = 0;
    for (const [provider, figures] of Object.entries(day.providers)) {
      const column = busiest.includes(provider) ? provider : OTHER;
      row[column] = Number(row[column]) + figures.requests;
    }
    return row;
  });
  const hasOther = totals.size > busiest.length;
  const series: ChartSeries[] = [...busiest, ...(hasOther ? [OTHER] : [])].map((key, index) => ({
    key,
    label: key,
    color: ((index % 5) + 1) as ChartSeries["color"],
    stack: "requests",
  }));
  return { rows, series };
}
