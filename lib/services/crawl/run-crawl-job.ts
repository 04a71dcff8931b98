/**
 * One crawl job, run by the instance holding its lease (research/worker.ts claims it): the crawl through the
 * call pipeline under the job's caps (crawl-site.ts, `crawlCall`: its trace, the direct fetcher only), the
 * pages read so far checkpointed on the row at most once a second, so a status read shows progress and a
 * partial result. A job taken over after its instance died starts the crawl again (a crawl's frontier is
 * not checkpointed; the direct fetcher costs nothing). Cancelled, it keeps the pages read so far.
 */

import type { CrawlInput } from "@/lib/engine/crawl/input";
import type { CrawledPage } from "@/lib/engine/crawl/run-crawl";
import type { Platform } from "@/lib/pipeline/context";
import { ServiceError } from "@/lib/pipeline/errors";
import { jobContext } from "@/lib/services/research/job-context";
import { type JobRow, type JobUpdate, writeJob } from "@/lib/services/research/job-lease";
import { CANCELLED, type JobControl } from "@/lib/services/research/run-research-job";
import type { CrawlJobState } from "./crawl-job-view";
import { crawlCall } from "./crawl-site";

/** How often, at most, the pages so far are written to the job's row. */
const CHECKPOINT_MS = 1_000;

export async function runCrawlJob(platform: Platform, row: JobRow, control: JobControl): Promise<void> {
  const { ctx } = jobContext(platform, row, () => {});
  const job = { id: row.id, owner: control.owner };
  const save = (update: JobUpdate) => writeJob(platform.db, job, update);
  const pages: CrawledPage[] = [];
  let queued = 0;
  let lastSaved = 0;
  let saving = false;
  const checkpoint = () => {
    if (saving || Date.now() - lastSaved < CHECKPOINT_MS) return;
    saving = true;
    lastSaved = Date.now();
    const state: CrawlJobState = { pages: [...pages], queued };
    void save({ state, progress: { message: `crawling: ${pages.length} pages read, ${queued} queued` } })
      .catch(() => {}) // a missed checkpoint only delays the progress shown; the lease decides the rest
      .finally(() => {
        saving = false;
      });
  };
  await save({ state: { pages: [], queued: 0 }, progress: { message: "crawling" } });
  try {
    const result = await crawlCall(ctx, row.input as CrawlInput, {
      signal: control.signal,
      job: {
        onPage(page, stillQueued) {
          pages.push(page);
          queued = stillQueued;
          checkpoint();
        },
      },
    });
    if (control.signal.aborted && control.signal.reason !== CANCELLED) return; // the new holder crawls again
    const cancelled = control.signal.aborted;
    const state: CrawlJobState = {
      pages: result.pages,
      queued: 0,
      skipped: result.skipped,
      errors: result.errors,
      counts: result.counts,
      stopped: result.stopped,
      ...(result.note !== undefined && { note: result.note }),
      duration_ms: result.duration_ms,
      cache_hit: result.cache_hit,
    };
    await save({
      status: cancelled ? "cancelled" : "succeeded",
      state,
      progress: {
        message: cancelled ? "cancelled" : `done: ${result.counts.pages} pages (${result.stopped})`,
      },
      traceId: result.trace_id,
    });
  } catch (error) {
    if (control.signal.aborted && control.signal.reason !== CANCELLED) return;
    const message = error instanceof ServiceError ? `${error.code}: ${error.message}` : String(error);
    await save({
      status: "failed",
      state: { pages, queued },
      progress: { message: "failed" },
      error: message,
    }).catch(() => {});
  }
}
