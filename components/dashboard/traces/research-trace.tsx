import Link from "next/link";
import { STATUS_TONE } from "@/components/dashboard/traces/outcome";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { type Column, DataTable } from "@/components/ui/data-table";
import { formatDuration, formatUsd } from "@/lib/dashboard/format";
import type { ResearchTraceSummary } from "@/lib/dashboard/trace-summary";
import { microsToUsd } from "@/lib/pipeline/budgets/units";
import type { SubCall } from "@/lib/services/research/research-state";
import { plural } from "@/lib/wording";

const PLANNERS: Record<string, string> = {
  model: "planned by the workspace's model",
  variants: "reformulations of the question (no model)",
};

const SUB_CALL_COLUMNS: readonly Column<SubCall>[] = [
  {
    header: "Tool",
    className: "font-mono text-xs",
    cell: (call) => (
      <Link href={`/dashboard/traces/${call.trace_id}`} className="text-primary hover:underline">
        {call.tool}
      </Link>
    ),
  },
  { header: "For", className: "max-w-md truncate", cell: (call) => call.label, title: (call) => call.label },
  { header: "Status", cell: (call) => <Badge tone={STATUS_TONE[call.status]}>{call.status}</Badge> },
  { header: "Duration", numeric: true, cell: (call) => formatDuration(call.duration_ms) },
  { header: "Cache", cell: (call) => (call.cache_hit ? "hit" : "miss") },
  { header: "Cost", numeric: true, cell: (call) => formatUsd(microsToUsd(call.cost_micros)) },
];

/**
 * A research job's trace: every call it made through a tool (each a trace of its own, linked), then the
 * searches it planned and the pages it chose to read, with those it could not.
 */
export function ResearchTrace({ research }: { research: ResearchTraceSummary }) {
  const { subCalls, queries, pages } = research;
  return (
    <>
      <Card>
        <CardHeader>
          <CardTitle>Sub-calls</CardTitle>
        </CardHeader>
        <CardContent>
          {subCalls.length === 0 ? (
            <p className="text-sm text-muted-foreground">The job made no tool call.</p>
          ) : (
            <DataTable
              rows={subCalls}
              columns={SUB_CALL_COLUMNS}
              rowKey={(call) => call.trace_id}
              rowTestId="sub-call"
            />
          )}
        </CardContent>
      </Card>
      <div className="grid gap-4 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>Searches</CardTitle>
          </CardHeader>
          <CardContent className="space-y-2 text-sm">
            {research.planner ? (
              <p className="text-muted-foreground">{PLANNERS[research.planner] ?? research.planner}</p>
            ) : null}
            {queries.length === 0 ? (
              <p className="text-muted-foreground">No search was planned.</p>
            ) : (
              <ol className="list-decimal space-y-1 pl-5">
                {queries.map((query) => (
                  <li key={query} data-testid="research-query">
                    {query}
                  </li>
                ))}
              </ol>
            )}
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Pages read</CardTitle>
          </CardHeader>
          <CardContent className="space-y-2 text-sm">
            <p className="text-muted-foreground">
              {plural(pages.filter((page) => !page.error).length, "page")} read,{" "}
              {plural(pages.filter((page) => page.error).length, "page")} not
            </p>
            <ul className="space-y-1">
              {pages.map((page) => (
                <li key={page.url} className="break-all" data-testid="research-page">
                  <a
                    href={page.url}
                    target="_blank"
                    rel="noopener noreferrer nofollow"
                    className="text-primary hover:underline"
                  >
                    {page.url}
                  </a>
                  {page.error ? <span className="ml-2 text-xs text-destructive">{page.error}</span> : null}
                </li>
              ))}
            </ul>
          </CardContent>
        </Card>
      </div>
    </>
  );
}
