import { Activity } from "lucide-react";
import Link from "next/link";
import { PageHeader } from "@/components/dashboard/page-header";
import { Pagination } from "@/components/dashboard/pagination";
import { TraceFilterForm } from "@/components/dashboard/traces/trace-filter-form";
import { TraceTable } from "@/components/dashboard/traces/trace-table";
import { Card, CardContent } from "@/components/ui/card";
import { EmptyState } from "@/components/ui/empty-state";
import { withParam } from "@/lib/dashboard/paginate";
import { dashboardSession } from "@/lib/dashboard/session";
import { searchTraces, traceFilters } from "@/lib/dashboard/trace-search";
import { TRACED_TOOL_NAMES } from "@/lib/tools/table";

type Params = Record<string, string | string[] | undefined>;

export default async function TracesPage({ searchParams }: { searchParams: Promise<Params> }) {
  const params = await searchParams;
  const { ctx, canAdminister } = await dashboardSession();
  const filters = traceFilters.parse(params);
  const { traces, next_cursor } = await searchTraces(ctx, filters);
  const filtered = Boolean(
    filters.tool ||
      filters.status ||
      filters.surface ||
      filters.provider ||
      filters.range ||
      filters.q ||
      filters.mine,
  );

  return (
    <div className="space-y-6">
      <PageHeader
        title="Traces"
        description={
          canAdminister
            ? "One trace per tool call from MCP, REST and the playground, newest first."
            : "Your tool calls from MCP, REST and the playground (yours and your tokens'), newest first."
        }
      />
      <TraceFilterForm filters={filters} offerMine={canAdminister} tools={TRACED_TOOL_NAMES} />
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
            <TraceTable traces={traces} />
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
