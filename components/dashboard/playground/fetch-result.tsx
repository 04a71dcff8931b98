import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { ExternalLink } from "@/components/ui/external-link";
import type { FetchResponse, FetchToolResponse } from "@/lib/tools/responses";
import { plural } from "@/lib/wording";
import { Markdown } from "./markdown";

/** Fetches `url` again from `offset`: the page's next window. */
type ReadOn = (url: string, offset: number) => void;

/** One fetched page, or (urls) each URL's page or error in order. */
export function FetchResult({ response, onReadOn }: { response: FetchToolResponse; onReadOn: ReadOn }) {
  // Without `results` the response is one page (toFetchResponse).
  if (response.results === undefined)
    return <FetchedPage page={response as FetchResponse} onReadOn={onReadOn} />;
  return (
    <div className="space-y-6">
      {response.results.map((item) =>
        "error" in item ? (
          <article key={item.url} className="space-y-1">
            <h3 className="truncate font-mono text-sm">{item.url}</h3>
            <Badge tone="danger">
              {item.error.code}: {item.error.message}
            </Badge>
          </article>
        ) : (
          <FetchedPage key={item.url} page={item} onReadOn={onReadOn} />
        ),
      )}
    </div>
  );
}

/**
 * The fetched page: where it came from, its content rendered (Markdown) or as-is (text, HTML source), and
 * the next page of a long document.
 */
function FetchedPage({ page, onReadOn }: { page: Omit<FetchResponse, "trace_id">; onReadOn: ReadOn }) {
  const { metadata } = page;
  const offset = page.offset ?? 0;
  const next = page.next_offset ?? null;
  return (
    <article className="space-y-3">
      <header className="space-y-1">
        <h3 className="text-lg font-semibold">{page.title || page.final_url}</h3>
        <ExternalLink href={page.final_url} className="block truncate font-mono text-xs">
          {page.final_url}
        </ExternalLink>
        <div className="flex flex-wrap gap-1.5">
          <Badge tone="primary">via {page.provider}</Badge>
          <Badge tone="outline">
            {plural(page.total_chars ?? offset + page.content.length, "character")}
          </Badge>
          {metadata.truncated ? <Badge tone="warning">truncated</Badge> : null}
          {offset > 0 || next !== null ? (
            <Badge tone="outline">
              {`characters ${offset}–${offset + page.content.length}${next === null ? "" : `; next offset ${next}`}`}
            </Badge>
          ) : null}
          {page.providers_failed.map((f) => (
            <Badge key={f.provider} tone="danger">
              {f.provider}: {f.reason}
            </Badge>
          ))}
        </div>
      </header>
      <div className="max-h-[32rem] overflow-y-auto rounded-md border p-4">
        {page.format === "markdown" ? (
          <Markdown>{page.content}</Markdown>
        ) : (
          <pre className="font-mono text-xs whitespace-pre-wrap">{page.content}</pre>
        )}
      </div>
      {next !== null ? (
        <Button variant="outline" onClick={() => onReadOn(page.url, next)}>
          Next page
        </Button>
      ) : null}
    </article>
  );
}
