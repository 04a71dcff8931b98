/**
 * A crawl job as every transport shows it (REST `GET /api/v1/crawl/<id>`, MCP task results, the CLI): its
 * status and progress, and the crawl's result as a synchronous crawl answers it, partial while it runs (the
 * pages read so far, `stopped` null until it ends).
 */
import type { CrawledPage } from "@/lib/engine/crawl/run-crawl";
import type { JobRow } from "@/lib/services/research/job-lease";
import type { CrawlOutcome } from "./crawl-site";

/** What a crawl job's row keeps in `state`: the pages so far, and once it ended the rest of the result. */
export interface CrawlJobState {
  pages: CrawledPage[];
  /** Pages found and not yet visited, at the last checkpoint. */
  queued: number;
  skipped?: CrawlOutcome["skipped"];
  errors?: CrawlOutcome["errors"];
  counts?: CrawlOutcome["counts"];
  stopped?: CrawlOutcome["stopped"];
  note?: string;
  duration_ms?: number;
  cache_hit?: boolean;
}

export interface CrawlJobView {
  id: string;
  status: JobRow["status"];
  progress: { message: string; pages_done: number; queued: number };
  url: string;
  mode: "pages" | "map";
  pages: CrawledPage[];
  skipped: NonNullable<CrawlJobState["skipped"]>;
  errors: NonNullable<CrawlJobState["errors"]>;
  counts: NonNullable<CrawlJobState["counts"]>;
  stopped: CrawlJobState["stopped"] | null;
  note?: string;
  cache_hit: boolean;
  duration_ms: number;
  error: string | null;
  trace_id: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

function crawlStateOf(stored: unknown): CrawlJobState {
  const state = (stored ?? {}) as Partial<CrawlJobState>;
  return { ...state, pages: state.pages ?? [], queued: state.queued ?? 0 };
}

export function toCrawlJobView(row: JobRow): CrawlJobView {
  const state = crawlStateOf(row.state);
  const input = row.input as { url: string; mode: "pages" | "map" };
  const progress = row.progress as { message?: string };
  return {
    id: row.id,
    status: row.status,
    progress: {
      message: progress.message ?? "waiting for a worker",
      pages_done: state.pages.length,
      queued: state.queued,
    },
    url: input.url,
    mode: input.mode,
    pages: state.pages,
    skipped: state.skipped ?? [],
    errors: state.errors ?? [],
    counts: state.counts ?? { pages: state.pages.length, skipped: 0, errors: 0, off_site: 0 },
    stopped: state.stopped ?? null,
    ...(state.note !== undefined && { note: state.note }),
    cache_hit: state.cache_hit ?? false,
    duration_ms: state.duration_ms ?? 0,
    error: row.error,
    trace_id: row.traceId,
    created_at: row.createdAt.toISOString(),
    started_at: row.startedAt?.toISOString() ?? null,
    finished_at: row.finishedAt?.toISOString() ?? null,
  };
}
