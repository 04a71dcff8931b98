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
    header: "When",
    className: "whitespace-nowrap",
    cell: (trace) => (
      <Link href={`/dashboard/traces/${trace.id}`} className="font-medium text-primary hover:underline">
        {formatDateTime(trace.created_at)}
      </Link>
    ),
  },
  { header: "Tool", className: "font-mono text-xs", cell: (trace) => trace.tool },
  { header: "Surface", cell: (trace) => <Caller trace={trace} /> },
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
    className: "max-w-72 truncate text-muted-foreground",
    title: (trace) => trace.error ?? undefined,
    cell: (trace) => trace.error ?? describeSummary(trace.summary),
  },
  { header: "Duration", numeric: true, cell: (trace) => formatDuration(trace.duration_ms) },
  { header: "Cost", numeric: true, cell: (trace) => formatUsd(trace.cost_usd) },
];

/** Traces newest first: when (linking to the trace), tool, who called from where, outcome, time and cost. */
export function TraceTable({ traces }: { traces: readonly Trace[] }) {
  return <DataTable rows={traces} rowKey={(trace) => trace.id} rowTestId="trace-row" columns={COLUMNS} />;
}

/** Where a call came from (surface and token) and who made it. */
function Caller({ trace }: { trace: Trace }) {
  return (
    <>
      {trace.surface}
      {trace.token_name ? (
        <span className="block text-xs text-muted-foreground">{trace.token_name}</span>
      ) : null}
      <span className="block text-xs text-muted-foreground" data-testid="trace-by">
        {callerOf(trace)}
      </span>
    </>
  );
}
