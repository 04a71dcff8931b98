import { Badge } from "@/components/ui/badge";
import { ExternalLink } from "@/components/ui/external-link";
import type { SearchResponse, SimilarResponse } from "@/lib/tools/responses";
import { Markdown } from "./markdown";
import { SourceBadges } from "./source-badges";

type Result = SearchResponse["results"][number];

/** Where a result's snippet came from; a snippet only one provider gave is that provider's own. */
function snippetSource({ snippet_source, sources }: Result): string {
  if (snippet_source === "grounded") return "snippet written from the page";
  const single = sources.length === 1 ? sources[0]?.provider : undefined;
  if (snippet_source === "fallback")
    return `${single ? `snippet from ${single}` : "merged snippet"} (page unusable for grounding)`;
  return single ? `snippet from ${single}` : "snippet merged from providers";
}

/** Fused results in rank order; with several queries (not merged), each query's under its own heading. */
export function SearchResults({ response }: { response: SearchResponse }) {
  if (!response.results_by_query) return <ResultList results={response.results} />;
  return (
    <div className="space-y-6">
      {response.results_by_query.map(({ query, results }) => (
        <section key={query} className="space-y-3" aria-label={query}>
          <h3 className="font-medium">{query}</h3>
          <ResultList results={results} />
        </section>
      ))}
    </div>
  );
}

/** Pages like a URL, found by Exa or by a search built from the page (which it names), in rank order. */
export function SimilarResults({ response }: { response: SimilarResponse }) {
  return (
    <div className="space-y-3">
      <p className="text-sm text-muted-foreground" data-testid="similar-method">
        Pages like <span className="break-all font-mono text-xs">{response.url}</span>
        {response.method === "exa" ? ", found by Exa" : `, found by searching for “${response.query ?? ""}”`}
      </p>
      <ResultList results={response.results} />
    </div>
  );
}

/** Each result with the providers that found it, where its snippet came from and, for news, who published it when. */
function ResultList({ results }: { results: readonly Result[] }) {
  return (
    <ol className="space-y-4" aria-label="Results">
      {results.map((result, index) => (
        <li key={result.url} className="rounded-md border p-4" data-testid="search-result">
          <div className="flex items-start gap-3">
            <span className="mt-0.5 w-6 shrink-0 text-right font-mono text-sm text-muted-foreground">
              {index + 1}
            </span>
            <div className="min-w-0 space-y-1.5">
              <ExternalLink href={result.url} className="font-medium">
                {result.title || result.url}
              </ExternalLink>
              <p className="truncate font-mono text-xs text-muted-foreground">{result.url}</p>
              {(result.source ?? result.published_at) !== undefined && (
                <p className="text-xs text-muted-foreground" data-testid="published">
                  {[result.source, result.published_at].filter(Boolean).join(" · ")}
                </p>
              )}
              <p className="text-sm">{result.snippet}</p>
              {result.content !== undefined && (
                <details className="rounded border bg-muted/30 p-2 text-sm">
                  <summary className="cursor-pointer text-xs text-muted-foreground">Page content</summary>
                  <Markdown>{result.content}</Markdown>
                </details>
              )}
              {result.content_error !== undefined && (
                <p className="text-xs text-muted-foreground">
                  Page content unavailable: {result.content_error}
                </p>
              )}
              <div className="flex flex-wrap items-center gap-2">
                <SourceBadges sources={result.sources} />
                <Badge tone="outline">{snippetSource(result)}</Badge>
                <span className="text-xs text-muted-foreground tabular-nums">
                  score {result.score.toFixed(4)}
                </span>
              </div>
            </div>
          </div>
        </li>
      ))}
    </ol>
  );
}
