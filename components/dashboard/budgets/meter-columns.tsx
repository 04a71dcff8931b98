import { Badge } from "@/components/ui/badge";
import type { Column } from "@/components/ui/data-table";
import { formatDateTime, formatRelative } from "@/lib/dashboard/format";
import { formatAmount, UsageMeter } from "./usage-meter";

/** A budget or an operator quota: a limit on a metric, how much of it is used, and when it resets. */
export interface Metered {
  metric: "requests" | "usd";
  limit: number;
  used: number;
  remaining: number;
  resets_at: string | null;
}

/**
 * The columns budgets and operator quotas share: the meter (amber on `warning`, red when used up), what
 * remains (saying so when the hard limit is reached: calls are refused), and when it resets.
 */
export function meterColumns<Row extends Metered>({
  label,
  warning,
  now,
}: {
  label: (row: Row) => string;
  warning: (row: Row) => boolean;
  now: Date;
}): { used: Column<Row>; remaining: Column<Row>; resets: Column<Row> } {
  return {
    used: {
      header: "Used",
      headClassName: "min-w-32 @xl:min-w-48",
      cell: (row) => (
        <UsageMeter
          label={label(row)}
          metric={row.metric}
          used={row.used}
          limit={row.limit}
          warning={warning(row)}
        />
      ),
    },
    remaining: {
      header: "Remaining",
      numeric: true,
      cell: (row) =>
        row.remaining > 0 ? (
          formatAmount(row.metric, row.remaining)
        ) : (
          <Badge tone="danger" title="Calls it covers are refused until it resets">
            hard limit reached
          </Badge>
        ),
    },
    resets: {
      header: "Resets",
      className: "whitespace-nowrap",
      cell: (row) =>
        row.resets_at ? (
          <>
            {formatRelative(row.resets_at, now)}
            <span className="block text-xs text-muted-foreground">{formatDateTime(row.resets_at)}</span>
          </>
        ) : (
          <span className="text-muted-foreground">never</span>
        ),
    },
  };
}
