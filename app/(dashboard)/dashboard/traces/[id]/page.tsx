import { ArrowLeft, Clock, DatabaseZap, DollarSign, Radio } from "lucide-react";
import Link from "next/link";
import { notFound } from "next/navigation";
import { PageHeader } from "@/components/dashboard/page-header";
import { StatCard } from "@/components/dashboard/stat-card";
import { STATUS_TONE } from "@/components/dashboard/traces/outcome";
import { ResearchTrace } from "@/components/dashboard/traces/research-trace";
import { Waterfall } from "@/components/dashboard/traces/waterfall";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { CodeBlock } from "@/components/ui/code-block";
import { EmptyState } from "@/components/ui/empty-state";
import { formatDateTime, formatDuration, formatUsd } from "@/lib/dashboard/format";
import { dashboardSession } from "@/lib/dashboard/session";
import { callerOf } from "@/lib/dashboard/trace-caller";
import { describeSummary, researchSummary } from "@/lib/dashboard/trace-summary";
import { ServiceError } from "@/lib/pipeline/errors";
import { getTrace } from "@/lib/services/traces/get-trace";

async function findTrace(ctx: Parameters<typeof getTrace>[0]["ctx"], id: string) {
  try {
    return await getTrace({ ctx, input: { id } });
  } catch (error) {
    // A malformed id is as unknown as a foreign one.
    if (error instanceof ServiceError && (error.code === "not_found" || error.code === "invalid_input"))
      notFound();
    throw error;
  }
}

const stringList = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v) => typeof v === "string") : [];
const failures = (value: unknown) =>
  Array.isArray(value)
    ? (value as Array<{ provider?: string; reason?: string }>).filter((f) => f.provider)
    : [];

export default async function TracePage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const { ctx } = await dashboardSession();
  // Admins see every trace, members their own calls; any other is not found.
  const trace = await findTrace(ctx, id);
  const summary = (trace.summary ?? {}) as Record<string, unknown>;
  const topUrls = stringList(summary.top_urls);
  const failed = failures(summary.failed);
  const research = researchSummary(trace.tool, trace.summary);

  return (
    <div className="space-y-6">
      <Button variant="link" asChild>
        <Link href="/dashboard/traces">
          <ArrowLeft aria-hidden /> All traces
        </Link>
      </Button>
      <PageHeader
        title={
          <span className="flex flex-wrap items-center gap-2">
            <span className="font-mono">{trace.tool}</span>
            <Badge tone={STATUS_TONE[trace.status]}>{trace.status}</Badge>
          </span>
        }
        description={
          <p>
            {formatDateTime(trace.created_at)} · trace <code className="font-mono">{trace.id}</code> ·{" "}
            <span data-testid="trace-by">{callerOf(trace)}</span>
          </p>
        }
      />
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <StatCard icon={Clock} label="Duration" value={formatDuration(trace.duration_ms)} />
        <StatCard
          icon={DollarSign}
          label="Cost"
          value={formatUsd(trace.cost_usd)}
          hint="Charged to budgets"
        />
        <StatCard icon={DatabaseZap} label="Cache" value={trace.cache_hit ? "hit" : "miss"} />
        <StatCard
          icon={Radio}
          label="Surface"
          value={trace.surface}
          hint={trace.token_name ? `token ${trace.token_name}` : undefined}
        />
      </div>

      <Card>
        <CardHeader>
          <CardTitle>Provider calls</CardTitle>
        </CardHeader>
        <CardContent>
          {trace.spans.length === 0 ? (
            <EmptyState icon={Radio} title="No provider was called">
              {research
                ? "The job called no model itself: its searches and reads are the sub-calls below."
                : trace.error
                  ? "The call failed before reaching a provider."
                  : "Nothing to show."}
            </EmptyState>
          ) : (
            <Waterfall spans={trace.spans} />
          )}
        </CardContent>
      </Card>

      {research ? <ResearchTrace research={research} /> : null}

      {trace.error ? (
        <Card className="border-destructive/50">
          <CardHeader>
            <CardTitle>Error</CardTitle>
          </CardHeader>
          <CardContent>
            <p className="text-sm break-words text-destructive">{trace.error}</p>
          </CardContent>
        </Card>
      ) : null}

      <div className="grid gap-4 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>Input</CardTitle>
          </CardHeader>
          <CardContent>
            <CodeBlock code={JSON.stringify(trace.input, null, 2)} label="input" />
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Result</CardTitle>
          </CardHeader>
          <CardContent className="space-y-3 text-sm">
            <p>{describeSummary(summary) || "No summary."}</p>
            {topUrls.length > 0 ? (
              <div>
                <h3 className="mb-1 font-medium">Top results</h3>
                <ol className="list-decimal space-y-1 pl-5">
                  {topUrls.map((url) => (
                    <li key={url} className="break-all">
                      <a
                        href={url}
                        target="_blank"
                        rel="noreferrer noopener"
                        className="text-primary hover:underline"
                      >
                        {url}
                      </a>
                    </li>
                  ))}
                </ol>
              </div>
            ) : null}
            {failed.length > 0 ? (
              <div>
                <h3 className="mb-1 font-medium">Providers that failed</h3>
                <ul className="flex flex-wrap gap-1">
                  {failed.map((f) => (
                    <li key={f.provider}>
                      <Badge tone="danger">
                        {f.provider}: {f.reason}
                      </Badge>
                    </li>
                  ))}
                </ul>
              </div>
            ) : null}
          </CardContent>
        </Card>
      </div>
    </div>
  );
}
