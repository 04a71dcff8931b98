import { Badge } from "@/components/ui/badge";
import { ExternalLink } from "@/components/ui/external-link";
import type { FetchResponse } from "@/lib/tools/responses";
import { plural } from "@/lib/wording";
import { Markdown } from "./markdown";

/** The fetched page: where it came from, and its content rendered (Markdown) or as-is (text, HTML source). */
export function FetchResult({ response }: { response: FetchResponse }) {
  const { metadata } = response;
  return (
    <article className="space-y-3">
      <header className="space-y-1">
        <h3 className="text-lg font-semibold">{response.title || response.final_url}</h3>
        <ExternalLink href={response.final_url} className="block truncate font-mono text-xs">
          {response.final_url}
        </ExternalLink>
        <div className="flex flex-wrap gap-1.5">
          <Badge tone="primary">via {response.provider}</Badge>
          <Badge tone="outline">{plural(metadata.total_chars, "character")}</Badge>
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
