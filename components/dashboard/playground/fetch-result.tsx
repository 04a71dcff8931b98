import { Badge } from "@/components/ui/badge";
import { formatCount } from "@/lib/dashboard/format";
import type { FetchResponse } from "@/lib/tools/responses";
import { Markdown } from "./markdown";

/** The fetched page: where it came from, and its content rendered (Markdown) or as-is (text, HTML source). */
export function FetchResult({ response }: { response: FetchResponse }) {
  const { metadata } = response;
  return (
    <article className="space-y-3">
      <header className="space-y-1">
        <h3 className="text-lg font-semibold">{response.title || response.final_url}</h3>
        <a
          href={response.final_url}
          target="_blank"
          rel="noreferrer noopener"
          className="block truncate font-mono text-xs text-primary hover:underline"
        >
          {response.final_url}
        </a>
        <div className="flex flex-wrap gap-1.5">
          <Badge tone="primary">via {response.provider}</Badge>
          <Badge tone="outline">{formatCount(metadata.total_chars)} characters</Badge>
          {metadata.truncated ? <Badge tone="warning">truncated</Badge> : null}
          {response.providers_failed.map((f) => (
            <Badge key={f.provider} tone="danger">
              {f.provider}: {f.reason}
            </Badge>
          ))}
        </div>
      </header>
      <div className="max-h-[32rem] overflow-y-auto rounded-md border p-4">
        {response.format === "markdown" ? (
          <Markdown>{response.content}</Markdown>
        ) : (
          <pre className="font-mono text-xs whitespace-pre-wrap">{response.content}</pre>
        )}
      </div>
    </article>
  );
}
