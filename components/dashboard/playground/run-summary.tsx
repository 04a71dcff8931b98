import { ExternalLink } from "lucide-react";
import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { formatDuration } from "@/lib/dashboard/format";
import type { PlaygroundResult } from "@/lib/dashboard/playground-events";
import { resultView } from "./tool-views";

/**
 * One line above the results: how many, how fast, from cache or not, who failed, who was not asked (a
 * refusal shows once, as a skip) and the trace (one's own).
 */
export function RunSummary({ result }: { result: PlaygroundResult }) {
  const { response } = result;
  // A tool without a summary of its own may lack any of these.
  const duration = "duration_ms" in response ? response.duration_ms : undefined;
  const cacheHit = "cache_hit" in response && response.cache_hit;
  const skipped = ("providers_skipped" in response ? response.providers_skipped : undefined) ?? [];
  const failed = (("providers_failed" in response ? response.providers_failed : undefined) ?? []).filter(
    (f) => !skipped.some((s) => s.provider === f.provider),
  );
  const traceId = "trace_id" in response ? response.trace_id : null;
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm">
      <span className="font-medium">{resultView(result).count(result.response)}</span>
      {duration !== undefined ? (
        <span
          className="text-muted-foreground"
          title="The call's time on the server, as its trace records it"
        >
          in {formatDuration(duration)}
        </span>
      ) : null}
      {cacheHit ? <Badge tone="primary">from cache</Badge> : null}
      {failed.map((f) => (
        <Badge key={f.provider} tone="danger">
          {f.provider}: {f.reason}
        </Badge>
      ))}
      {skipped.map((s) => (
        <Badge key={s.provider} tone="outline" data-testid="provider-skipped">
          {s.provider} skipped: {s.reason.replace(/_/g, " ")}
        </Badge>
      ))}
      {traceId ? (
        <Link
          href={`/dashboard/traces/${traceId}`}
          className="ml-auto inline-flex items-center gap-1 text-primary hover:underline"
        >
          Open trace <ExternalLink className="size-3.5" aria-hidden />
        </Link>
      ) : null}
    </div>
  );
}
