import { Badge } from "@/components/ui/badge";
import { ExternalLink } from "@/components/ui/external-link";
import type { ExtractResponse } from "@/lib/tools/responses";

/** Each URL in input order: the data it was filled with and by which extractor, or why it was not. */
export function ExtractResults({ response }: { response: ExtractResponse }) {
  return (
    <ol className="space-y-4" aria-label="Pages">
      {response.results.map((item) => (
        <li key={item.url} className="space-y-2 rounded-md border p-3" data-testid="extract-result">
          <ExternalLink href={item.url} className="block truncate font-mono text-sm">
            {item.url}
          </ExternalLink>
          {"error" in item ? (
            <Badge tone="danger">
              {item.error.code}: {item.error.message}
            </Badge>
          ) : (
            <>
              <div className="flex flex-wrap gap-1.5">
                <Badge tone="primary">via {item.provider}</Badge>
                {item.cache_hit ? <Badge tone="outline">cached</Badge> : null}
              </div>
              <pre className="overflow-x-auto rounded-md bg-muted p-3 text-xs">
                {JSON.stringify(item.data, null, 2)}
              </pre>
            </>
          )}
        </li>
      ))}
    </ol>
  );
}
