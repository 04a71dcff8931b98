import { ExternalLink as ExternalLinkIcon } from "lucide-react";
import Link from "next/link";
import type { ReactNode } from "react";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Progress } from "@/components/ui/progress";
import { bySourceNumber } from "@/lib/dashboard/citation-markers";
import { formatDate, formatDateTime, formatUsd } from "@/lib/dashboard/format";
import { domainOf } from "@/lib/dashboard/provenance";
import {
  isActive,
  reportForDisplay,
  STATUS_WORDS,
  STOP_REASONS,
  stepOf,
} from "@/lib/dashboard/research-view";
import type { ResearchSource } from "@/lib/engine/research/types";
import type { ResearchJobView, ResearchStatus } from "@/lib/services/research/job-view";
import { Markdown } from "./markdown";
import { SourceBadges } from "./source-badges";

const JOB_TONE: Record<ResearchStatus, BadgeTone> = {
  queued: "neutral",
  running: "primary",
  succeeded: "success",
  failed: "danger",
  cancelled: "warning",
};

/** A link to a page from the web: a new tab, no opener, no referrer, no endorsement. */
function WebLink({ href, className, children }: { href: string; className?: string; children: ReactNode }) {
  return (
    <a
      href={href}
      target="_blank"
      rel="noopener noreferrer nofollow"
      className={className ?? "text-primary hover:underline"}
    >
      {children}
    </a>
  );
}

/**
 * One research job: while it runs, its phase and step with a Cancel button; once it ended, the report
 * (Markdown, each [n] a link to the page it cites), why it stopped early or failed, the sources (each by
 * title, domain, date and the providers that found it), its cost and its trace.
 */
export function ResearchJob({
  job,
  cancelling,
  onCancel,
}: {
  job: ResearchJobView;
  cancelling: boolean;
  onCancel: () => void;
}) {
  const active = isActive(job.status);
  const { progress } = job;
  return (
    <article className="space-y-5" data-testid="research-job" aria-busy={active}>
      <header className="space-y-2">
        <div className="flex flex-wrap items-center gap-2">
          <h2 className="text-base font-semibold">{job.question}</h2>
          <Badge tone={JOB_TONE[job.status]} data-testid="research-status">
            {STATUS_WORDS[job.status]}
          </Badge>
          {job.partial ? <Badge tone="warning">partial</Badge> : null}
        </div>
        <p className="flex flex-wrap gap-x-3 text-xs text-muted-foreground">
          <span>started {formatDateTime(job.created_at)}</span>
          <span data-testid="research-cost">cost {formatUsd(job.cost_usd)}</span>
          {job.trace_id ? (
            <Link
              href={`/dashboard/traces/${job.trace_id}`}
              className="inline-flex items-center gap-1 text-primary hover:underline"
            >
              Open trace <ExternalLinkIcon className="size-3.5" aria-hidden />
            </Link>
          ) : null}
        </p>
      </header>

      {active ? (
        <div className="space-y-2" aria-live="polite" data-testid="research-progress">
          <div className="flex flex-wrap items-center gap-2 text-sm">
            <Badge tone="outline">{progress.phase}</Badge>
            <span>{progress.message}</span>
            <span className="ml-auto text-xs text-muted-foreground">{stepOf(progress)}</span>
          </div>
          <Progress
            value={progress.total > 0 ? (progress.done / progress.total) * 100 : 0}
            label="Research progress"
          />
          <Button variant="outline" onClick={onCancel} disabled={cancelling} aria-busy={cancelling}>
            {cancelling ? "Cancelling…" : "Cancel"}
          </Button>
        </div>
      ) : null}

      <Outcome job={job} />

      {job.report !== null ? (
        <div className="rounded-md border p-4" data-testid="research-report">
          <Markdown citations={bySourceNumber(job.sources)}>{reportForDisplay(job.report)}</Markdown>
        </div>
      ) : null}

      {job.sources.length > 0 ? <Sources sources={job.sources} /> : null}
    </article>
  );
}

/** Why the job ended as it did, in words: stopped early, failed, or cancelled. */
function Outcome({ job }: { job: ResearchJobView }) {
  const lines: string[] = [];
  if (job.stop_reason) lines.push(STOP_REASONS[job.stop_reason]);
  if (job.status === "failed") lines.push(`It failed: ${job.error ?? "no reason was recorded"}.`);
  if (job.status === "cancelled") lines.push("It was cancelled before it finished: there is no report.");
  if (lines.length === 0) return null;
  return (
    <div className="space-y-1 text-sm" data-testid="research-outcome">
      {lines.map((line) => (
        <p key={line}>{line}</p>
      ))}
    </div>
  );
}

/** The pages the report cites, at a glance: title (a link), domain, date when known, who found it. */
function Sources({ sources }: { sources: readonly ResearchSource[] }) {
  return (
    <section className="space-y-2">
      <h3 className="text-sm font-medium">Sources</h3>
      <ol className="space-y-3">
        {sources.map((source) => (
          <li key={source.n} className="flex gap-2 text-sm" data-testid="research-source">
            <span className="font-mono text-xs leading-5 text-muted-foreground">[{source.n}]</span>
            <div className="min-w-0 space-y-1">
              <WebLink href={source.url} className="font-medium text-primary hover:underline">
                {source.title || source.url}
              </WebLink>
              <p className="flex flex-wrap gap-x-2 text-xs text-muted-foreground">
                <span data-testid="source-domain">{domainOf(source.url)}</span>
                {source.published_at ? (
                  <time dateTime={source.published_at}>{formatDate(source.published_at)}</time>
                ) : null}
              </p>
              <SourceBadges sources={source.found_by} />
            </div>
          </li>
        ))}
      </ol>
    </section>
  );
}

/** The recent jobs of the workspace (one's own for members): clicking one shows it above. */
export function RecentResearch({
  jobs,
  current,
  onOpen,
}: {
  jobs: readonly ResearchJobView[] | null;
  current: string | undefined;
  onOpen: (job: ResearchJobView) => void;
}) {
  if (jobs === null) return <p className="text-sm text-muted-foreground">Loading recent jobs…</p>;
  if (jobs.length === 0) return <p className="text-sm text-muted-foreground">No research job yet.</p>;
  return (
    <ul className="divide-y" aria-label="Recent research jobs">
      {jobs.map((job) => (
        <li key={job.id} data-testid="research-recent">
          <button
            type="button"
            onClick={() => onOpen(job)}
            aria-current={job.id === current}
            className="flex w-full flex-wrap items-center gap-2 py-2 text-left text-sm hover:bg-muted/50 aria-[current=true]:font-medium"
          >
            <span className="min-w-0 flex-1 truncate">{job.question}</span>
            <Badge tone={JOB_TONE[job.status]}>{STATUS_WORDS[job.status]}</Badge>
            <span className="text-xs text-muted-foreground">{formatDateTime(job.created_at)}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}
