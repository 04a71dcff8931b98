import type { Column } from "@/components/ui/data-table";
import { formatUsd } from "@/lib/dashboard/format";
import type { Spend } from "@/lib/services/usage/connection-spend";
import { plural } from "@/lib/wording";

/**
 * The Connect page's "This month" column, for tokens and connected apps alike: what a connection's tool
 * calls this UTC month were charged, and how many calls (lib/services/usage/connection-spend.ts).
 */
export function spendColumn<Row>(spendOf: (row: Row) => Spend | undefined): Column<Row> {
  return {
    header: "This month",
    numeric: true,
    className: "whitespace-nowrap",
    cell: (row) => {
      const spend = spendOf(row) ?? { usd: 0, calls: 0 };
      return (
        <div data-testid="connection-spend">
          {formatUsd(spend.usd)}
          <div className="text-xs text-muted-foreground">{plural(spend.calls, "call")}</div>
        </div>
      );
    },
  };
}
