import { Badge } from "@/components/ui/badge";
import { ExternalLink } from "@/components/ui/external-link";
import type { PaperSearchResponse } from "@/lib/tools/responses";
import { plural } from "@/lib/wording";
import { SourceBadges } from "./source-badges";

type Paper = PaperSearchResponse["results"][number];

const AUTHORS_SHOWN = 5;
const authorLine = (authors: readonly string[]) =>
  authors.length > AUTHORS_SHOWN
    ? `${authors.slice(0, AUTHORS_SHOWN).join(", ")} et al.`
    : authors.join(", ");

function PaperLinks({ paper }: { paper: Paper }) {
  const links = [
    paper.doi && { href: `https://doi.org/${paper.doi}`, label: `doi:${paper.doi}` },
    paper.arxiv_id && { href: `https://arxiv.org/abs/${paper.arxiv_id}`, label: `arXiv:${paper.arxiv_id}` },
    paper.pmid && { href: `https://pubmed.ncbi.nlm.nih.gov/${paper.pmid}/`, label: `PMID ${paper.pmid}` },
    paper.pdf_url && { href: paper.pdf_url, label: "PDF" },
  ].filter((link): link is { href: string; label: string } => Boolean(link));
  return (
    <ul className="flex flex-wrap gap-x-3 gap-y-1 text-xs">
      {links.map((link) => (
        <li key={link.href}>
          <ExternalLink href={link.href}>{link.label}</ExternalLink>
        </li>
      ))}
    </ul>
  );
}

/** Papers merged across sources (by DOI, arXiv id, then title), each with every source that listed it. */
export function PaperResults({ response }: { response: PaperSearchResponse }) {
  return (
    <ol className="space-y-4" aria-label="Papers">
      {response.results.map((paper, index) => (
        <li
          key={paper.doi ?? paper.arxiv_id ?? `${paper.title}-${index}`}
          className="space-y-1.5 rounded-md border p-4"
          data-testid="paper"
        >
          <h3 className="font-medium">
            {paper.url ? <ExternalLink href={paper.url}>{paper.title}</ExternalLink> : paper.title}
          </h3>
          <p className="text-sm text-muted-foreground">
            {authorLine(paper.authors)}
            {paper.year ? ` · ${paper.year}` : ""}
            {paper.venue ? ` · ${paper.venue}` : ""}
          </p>
          <div className="flex flex-wrap items-center gap-2">
            <SourceBadges sources={paper.sources} />
            {paper.open_access ? <Badge tone="success">open access</Badge> : null}
            {paper.citation_count !== null ? (
              <Badge tone="outline">{plural(paper.citation_count, "citation")}</Badge>
            ) : null}
          </div>
          <PaperLinks paper={paper} />
          {paper.abstract ? (
            <details className="text-sm">
              <summary className="cursor-pointer text-muted-foreground">Abstract</summary>
              <p className="mt-1">{paper.abstract}</p>
            </details>
          ) : null}
        </li>
      ))}
    </ol>
  );
}
