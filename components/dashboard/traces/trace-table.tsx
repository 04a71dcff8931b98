import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { type Column, DataTable } from "@/components/ui/data-table";
import { formatDateTime, formatDuration, formatUsd } from "@/lib/dashboard/format";
import { callerOf } from "@/lib/dashboard/trace-caller";
import type { searchTraces } from "@/lib/dashboard/trace-search";
import { describeSummary } from "@/lib/dashboard/trace-summary";
import { STATUS_TONE } from "./outcome";

type Trace = Awaited<ReturnType<typeof searchTraces>>["traces"][number];

const COLUMNS: Column<Trace>[] = [
  {
    header: "When, from where",
    cell: (trace) => (
      <>
        <Link
          href={`/dashboard/traces/${trace.id}`}
          className="font-medium whitespace-nowrap text-primary hover:underline"
        >
          {formatDateTime(trace.created_at)}
        </Link>
        <Caller trace={trace} />
      </>
    ),
  },
  { header: "Tool", foldBelow: "xl", className: "font-mono text-xs", cell: (trace) => trace.tool },
  {
    header: "Status",
    cell: (trace) => (
      <div className="flex flex-wrap gap-1">
        <Badge tone={STATUS_TONE[trace.status]}>{trace.status}</Badge>
        {trace.cache_hit ? <Badge tone="primary">cache</Badge> : null}
      </div>
    ),
  },
  {
    header: "Result",
    foldBelow: "3xl",
    className: "max-w-72 truncate text-muted-foreground",
    title: (trace) => trace.error ?? undefined,
    cell: (trace) => trace.error ?? describeSummary(trace.summary),
  },
  {
    header: "Duration",
    foldBelow: "2xl",
    numeric: true,
    cell: (trace) => formatDuration(trace.duration_ms),
  },
  { header: "Cost", foldBelow: "2xl", numeric: true, cell: (trace) => formatUsd(trace.cost_usd) },
];

/**
 * Traces newest first: when (linking to the trace) and who called from where, tool, outcome, time and
 * cost; on a phone the when, the caller and the outcome, the rest folded under the when.
 */
export function TraceTable({ traces }: { traces: readonly Trace[] }) {
  return <DataTable rows={traces} rowKey={(trace) => trace.id} rowTestId="trace-row" columns={COLUMNS} />;
}

/** Where a call came from (surface and token) and who made it. */
function Caller({ trace }: { trace: Trace }) {
  return (
    <span className="block text-xs text-muted-foreground">
      {trace.surface}
      {trace.token_name ? ` · ${trace.token_name}` : null}
      <span className="block" data-testid="trace-by">
        {callerOf(trace)}
      </span>
    </span>
  );
}
