import { freeTierSize } from "@/lib/dashboard/free-tier";
import { extraResultsPrice, perCallPrice } from "@/lib/dashboard/prices";
import type { listPrices } from "@/lib/services/providers/list-prices";

/** `prices` output: one line per entry, in the words of the Budgets page's table. */
export function formatPrices(prices: ReturnType<typeof listPrices>): string {
  return prices
    .map((row) => {
      const extra = extraResultsPrice(row);
      const free = row.free_tier ? `; free ${freeTierSize(row.free_tier)}` : "";
      const override = row.overridden.length > 0 ? ` [operator override: ${row.overridden.join(", ")}]` : "";
      return `${row.key}: ${perCallPrice(row)}${extra === "–" ? "" : `, ${extra}`}${free}${override} (${row.source}, ${row.as_of})`;
    })
    .join("\n");
}
