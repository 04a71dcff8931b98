import { Badge } from "@/components/ui/badge";
import { type Column, DataTable } from "@/components/ui/data-table";
import { ExternalLink } from "@/components/ui/external-link";
import type { CrawlResponse } from "@/lib/tools/responses";
import { plural } from "@/lib/wording";
import { Markdown } from "./markdown";

type CrawledPage = CrawlResponse["pages"][number];

/** Why the crawl ended, as a sentence. */
const STOPPED: Record<CrawlResponse["stopped"], string> = {
  complete: "It read every page it found: nothing is left within the limits.",
  depth: "It stopped at the depth limit: some links lead further than the hops allowed.",
  page_limit: "It stopped at the page limit: the site has more pages than were asked for.",
  char_limit: "It stopped when the result reached its size limit (100,000 characters).",
  deadline: "It ran out of time and returns the pages it had read by then.",
  slow_progress: "It stopped early: the site answered too slowly for the crawl to go on.",
};

const MAP_COLUMNS: readonly Column<CrawledPage>[] = [
  {
    header: "URL",
    className: "max-w-md truncate font-mono text-xs",
    cell: (p) => <ExternalLink href={p.final_url}>{p.final_url}</ExternalLink>,
    title: (p) => p.final_url,
  },
  { header: "Title", cell: (p) => p.title || <span className="text-muted-foreground">untitled</span> },
  { header: "Depth", numeric: true, cell: (p) => p.depth },
];

/** A crawl: its URL map (map mode) or its pages with their Markdown, then what it skipped and why it ended. */
export function CrawlResult({ response }: { response: CrawlResponse }) {
  const { counts } = response;
  return (
    <div className="space-y-6">
      <div className="space-y-1 text-sm" data-testid="crawl-stopped">
        <p>{STOPPED[response.stopped]}</p>
        {response.note ? <p className="text-muted-foreground">{response.note}</p> : null}
        {counts.off_site > 0 ? (
          <p className="text-muted-foreground">
            {plural(counts.off_site, "link")} to other sites not followed.
          </p>
        ) : null}
      </div>

      {response.pages.length === 0 ? (
        <p className="text-sm text-muted-foreground">No page was read.</p>
      ) : response.mode === "map" ? (
        <DataTable
          rows={response.pages}
          columns={MAP_COLUMNS}
          rowKey={(p) => p.final_url}
          rowTestId="crawl-url"
        />
      ) : (
        <ol className="space-y-3" aria-label="Pages">
          {response.pages.map((p) => (
            <CrawledPageItem key={p.final_url} page={p} />
          ))}
        </ol>
      )}

      <UrlList
        title={`Skipped (${counts.skipped})`}
        testId="crawl-skipped"
        items={response.skipped.map((s) => ({ url: s.url, why: s.reason }))}
      />
      <UrlList
        title={`Errors (${counts.errors})`}
        testId="crawl-error"
        items={response.errors.map((e) => ({ url: e.url, why: `${e.code}: ${e.message}` }))}
      />
    </div>
  );
}

/** A page of a crawl in pages mode: its title and facts, the Markdown folded away. */
function CrawledPageItem({ page }: { page: CrawledPage }) {
  return (
    <li className="space-y-1.5 rounded-md border p-4" data-testid="crawl-page">
      <h3 className="font-medium">{page.title || page.final_url}</h3>
      <ExternalLink href={page.final_url} className="block truncate font-mono text-xs">
        {page.final_url}
      </ExternalLink>
      <div className="flex flex-wrap gap-1.5">
        <Badge tone="outline">depth {page.depth}</Badge>
        <Badge tone="outline">{plural(page.chars, "character")}</Badge>
        {page.truncated ? <Badge tone="warning">truncated</Badge> : null}
      </div>
      {page.content !== undefined ? (
        <details className="rounded border bg-muted/30 p-2 text-sm">
          <summary className="cursor-pointer text-xs text-muted-foreground">Content</summary>
          <Markdown className="pt-2">{page.content}</Markdown>
        </details>
      ) : null}
    </li>
  );
}

/** URLs the crawl did not read, each with why; nothing when there are none. */
function UrlList({
  title,
  testId,
  items,
}: {
  title: string;
  testId: string;
  items: ReadonlyArray<{ url: string; why: string }>;
}) {
  if (items.length === 0) return null;
  return (
    <section className="space-y-2">
      <h3 className="text-sm font-medium">{title}</h3>
      <ul className="space-y-1 text-sm">
        {items.map((item) => (
          <li key={item.url} className="flex flex-wrap items-center gap-2" data-testid={testId}>
            <span className="break-all font-mono text-xs">{item.url}</span>
            <span className="text-xs text-muted-foreground">{item.why}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
