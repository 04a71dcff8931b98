import { Activity } from "lucide-react";
import Link from "next/link";
import { PageHeader } from "@/components/dashboard/page-header";
import { Pagination } from "@/components/dashboard/pagination";
import { RestrictedNotice } from "@/components/dashboard/restricted-notice";
import { STATUS_TONE } from "@/components/dashboard/traces/outcome";
import { TraceFilterForm } from "@/components/dashboard/traces/trace-filter-form";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { formatDateTime, formatDuration, formatUsd } from "@/lib/dashboard/format";
import { withParam } from "@/lib/dashboard/paginate";
import { dashboardSession } from "@/lib/dashboard/session";
import { searchTraces, traceFilters } from "@/lib/dashboard/trace-search";
import { describeSummary } from "@/lib/dashboard/trace-summary";

type Params = Record<string, string | string[] | undefined>;

export default async function TracesPage({ searchParams }: { searchParams: Promise<Params> }) {
  const params = await searchParams;
  const { ctx, canAdminister } = await dashboardSession();
  if (!canAdminister) {
    return (
      <div className="space-y-6">
        <PageHeader title="Traces" />
        <RestrictedNotice title="Traces are visible to admins">
          Every call's inputs and results are recorded; workspace owners and admins can inspect them here.
        </RestrictedNotice>
      </div>
    );
  }
  const filters = traceFilters.parse(params);
  const { traces, next_cursor } = await searchTraces(ctx, filters);
  const filtered = Boolean(
    filters.tool || filters.status || filters.surface || filters.provider || filters.range || filters.q,
  );

  return (
    <div className="space-y-6">
      <PageHeader
        title="Traces"
        description="One trace per tool call from MCP, REST and the playground, newest first."
      />
      <TraceFilterForm filters={filters} />
      <Card>
        <CardContent className="p-0 sm:p-2">
          {traces.length === 0 ? (
            <div className="p-4">
              <EmptyState icon={Activity} title={filtered ? "No traces match" : "No traces yet"}>
                {filtered ? (
                  "Widen the filters or clear them."
                ) : (
                  <>
                    Run a search in the{" "}
                    <Link href="/dashboard/playground" className="text-primary hover:underline">
                      playground
                    </Link>{" "}
                    or from a connected client, and it shows up here.
                  </>
                )}
              </EmptyState>
            </div>
          ) : (
            <Table>
              <TableHeader>
                <TableRow>
                  <TableHead>When</TableHead>
                  <TableHead>Tool</TableHead>
                  <TableHead>Surface</TableHead>
                  <TableHead>Status</TableHead>
                  <TableHead>Result</TableHead>
                  <TableHead className="text-right">Duration</TableHead>
                  <TableHead className="text-right">Cost</TableHead>
                </TableRow>
              </TableHeader>
              <TableBody>
                {traces.map((trace) => (
                  <TableRow key={trace.id} data-testid="trace-row">
                    <TableCell className="whitespace-nowrap">
                      <Link
                        href={`/dashboard/traces/${trace.id}`}
                        className="font-medium text-primary hover:underline"
                      >
                        {formatDateTime(trace.created_at)}
                      </Link>
                    </TableCell>
                    <TableCell className="font-mono text-xs">{trace.tool}</TableCell>
                    <TableCell>
                      {trace.surface}
                      {trace.token_name ? (
                        <span className="block text-xs text-muted-foreground">{trace.token_name}</span>
                      ) : null}
                    </TableCell>
                    <TableCell>
                      <div className="flex flex-wrap gap-1">
                        <Badge tone={STATUS_TONE[trace.status]}>{trace.status}</Badge>
                        {trace.cache_hit ? <Badge tone="primary">cache</Badge> : null}
                      </div>
                    </TableCell>
                    <TableCell
                      className="max-w-72 truncate text-muted-foreground"
                      title={trace.error ?? undefined}
                    >
                      {trace.error ?? describeSummary(trace.summary)}
                    </TableCell>
                    <TableCell className="text-right tabular-nums">
                      {formatDuration(trace.duration_ms)}
                    </TableCell>
                    <TableCell className="text-right tabular-nums">{formatUsd(trace.cost_usd)}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          )}
          <Pagination
            label="Trace pages"
            summary={filters.cursor ? "Older traces" : "Newest traces"}
            previousHref={filters.cursor ? withParam(params, "cursor", undefined) : undefined}
            nextHref={next_cursor ? withParam(params, "cursor", next_cursor) : undefined}
          />
        </CardContent>
      </Card>
    </div>
  );
}
