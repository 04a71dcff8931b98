import { ExternalLink } from "lucide-react";
import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { formatDuration } from "@/lib/dashboard/format";
import type { PlaygroundResult } from "@/lib/dashboard/playground-events";

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function counts(result: PlaygroundResult): string {
  switch (result.tool) {
    case "web_search":
      return plural(result.response.results.length, "result", "results");
    case "paper_search":
      return plural(result.response.results.length, "paper", "papers");
    case "answer":
      return plural(result.response.answers.length, "answer", "answers");
    case "fetch":
      return "1 page";
    default:
      return "Result";
  }
}

/** One line above the results: how many, how fast, from cache or not, who failed, and the trace. */
export function RunSummary({ result, canSeeTraces }: { result: PlaygroundResult; canSeeTraces: boolean }) {
  const { response } = result;
  // A tool without a summary of its own may lack any of these.
  const duration = "duration_ms" in response ? response.duration_ms : undefined;
  const cacheHit = "cache_hit" in response && response.cache_hit;
  const failed = "providers_failed" in response ? response.providers_failed : [];
  const traceId = "trace_id" in response ? response.trace_id : null;
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm">
      <span className="font-medium">{counts(result)}</span>
      {duration !== undefined ? (
        <span className="text-muted-foreground">in {formatDuration(duration)}</span>
      ) : null}
      {cacheHit ? <Badge tone="primary">from cache</Badge> : null}
      {failed.map((f) => (
        <Badge key={f.provider} tone="danger">
          {f.provider}: {f.reason}
        </Badge>
      ))}
      {traceId ? (
        canSeeTraces ? (
          <Link
            href={`/dashboard/traces/${traceId}`}
            className="ml-auto inline-flex items-center gap-1 text-primary hover:underline"
          >
            Open trace <ExternalLink className="size-3.5" aria-hidden />
          </Link>
        ) : (
          <span className="ml-auto text-xs text-muted-foreground">Traces are visible to admins.</span>
        )
      ) : null}
    </div>
  );
}
