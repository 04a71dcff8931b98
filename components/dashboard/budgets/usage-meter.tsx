import { Progress } from "@/components/ui/progress";
import { formatCount, formatUsd } from "@/lib/dashboard/format";

/** An amount of a budget's or quota's metric: dollars for "usd", a count otherwise. */
export const formatAmount = (metric: string, value: number) =>
  metric === "usd" ? formatUsd(value) : formatCount(value);

/** How much of `limit` is used, in percent; a zero limit is used up. */
export const usedPercent = (used: number, limit: number) => (limit === 0 ? 100 : (used / limit) * 100);

/** The "Used" cell of a budget or quota row: a bar (red when used up, amber on `warning`) and "used of limit". */
export function UsageMeter({
  label,
  metric,
  used,
  limit,
  warning,
}: {
  label: string;
  metric: string;
  used: number;
  limit: number;
  warning: boolean;
}) {
  const share = usedPercent(used, limit);
  return (
    <div className="space-y-1">
      <Progress
        value={share}
        label={`${label}: ${Math.round(share)}% used`}
        tone={share >= 100 ? "danger" : warning ? "warning" : "default"}
      />
      <span className="text-xs tabular-nums text-muted-foreground">
        {formatAmount(metric, used)} of {formatAmount(metric, limit)}
      </span>
    </div>
  );
}
