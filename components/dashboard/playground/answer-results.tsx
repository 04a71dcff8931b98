import { Badge } from "@/components/ui/badge";
import { ExternalLink } from "@/components/ui/external-link";
import { numberedFromOne } from "@/lib/dashboard/citation-markers";
import { formatDuration } from "@/lib/dashboard/format";
import type { AnswerResponse } from "@/lib/tools/responses";
import { Markdown } from "./markdown";

/** A cited page by its title (its URL when it has none). */
const Citation = ({ citation }: { citation: { url: string; title: string } }) => (
  <ExternalLink href={citation.url}>{citation.title || citation.url}</ExternalLink>
);

/**
 * Every provider's answer side by side, each citation marker a link to the page it cites, with its
 * citations listed under it; then the pages several answers cite.
 */
export function AnswerResults({ response }: { response: AnswerResponse }) {
  return (
    <div className="space-y-4">
      <div className="grid gap-4 lg:grid-cols-2">
        {response.answers.map((a) => (
          <article
            key={a.provider}
            className="flex flex-col gap-3 rounded-md border p-4"
            data-testid="answer"
          >
            <header className="flex flex-wrap items-center gap-2">
              <Badge tone="primary" data-testid="provider-badge">
                {a.provider}
              </Badge>
              <span className="font-mono text-xs text-muted-foreground">{a.model}</span>
              <span className="ml-auto text-xs text-muted-foreground tabular-nums">
                answered in {formatDuration(a.duration_ms)}
              </span>
            </header>
            <Markdown citations={numberedFromOne(a.citations)}>{a.answer}</Markdown>
            {a.citations.length > 0 ? (
              <ol className="list-decimal space-y-1 border-t pt-2 pl-5 text-xs">
                {a.citations.map((c) => (
                  <li key={c.url} className="break-all">
                    <Citation citation={c} />
                  </li>
                ))}
              </ol>
            ) : null}
          </article>
        ))}
      </div>
      {response.agreement.shared_citations.length > 0 ? (
        <section className="space-y-2">
          <h3 className="text-sm font-medium">Cited by more than one answer</h3>
          <ul className="space-y-1 text-sm">
            {response.agreement.shared_citations.map((c) => (
              <li key={c.url} className="flex flex-wrap items-center gap-2">
                <Citation citation={c} />
                <span className="text-xs text-muted-foreground">{c.providers.join(", ")}</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}
