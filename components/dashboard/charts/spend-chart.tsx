import type { UsageDay } from "@/lib/services/usage/usage-history";
import { Chart } from "./chart";

/** What provider calls cost per UTC day, with the daily cap across all providers as a dashed line. */
export function SpendChart({
  days,
  dailyCapUsd,
}: {
  days: ReadonlyArray<Pick<UsageDay, "date" | "usd">>;
  dailyCapUsd?: number;
}) {
  return (
    <Chart
      kind="area"
      label={`Spend per day in US dollars, last ${days.length} days`}
      data={days.map((day) => ({ date: day.date, usd: day.usd }))}
      category="date"
      categoryFormat="day"
      format="usd"
      series={[{ key: "usd", label: "Spend", color: 2 }]}
      reference={dailyCapUsd === undefined ? undefined : { value: dailyCapUsd, label: "daily cap" }}
    />
  );
}
