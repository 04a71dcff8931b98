import { assertScope, type TenantContext, type VerbArgs } from "@/lib/pipeline/context";
import { parseInput } from "@/lib/pipeline/validate";
import { cancelJob } from "@/lib/services/research/cancel-job";
import { researchIdInput } from "@/lib/services/research/get-research";
import { isUnattended } from "@/lib/services/research/job-lease";
import { listJobs } from "@/lib/services/research/list-research";
import { withVisibleJob } from "@/lib/services/research/visibility";
import { wakeResearchWorker } from "@/lib/services/research/worker";
import { type CrawlJobView, toCrawlJobView } from "./crawl-job-view";

/**
 * A crawl job's status, progress and pages so far (scope fetch); another
 * workspace's job, or one the caller may not see, is not found. Reading a job nobody runs wakes this
 * instance's worker, as a research job's status read does.
 */
export async function getCrawlJob({
  ctx,
  input,
}: VerbArgs<TenantContext, typeof researchIdInput>): Promise<CrawlJobView> {
  assertScope(ctx, "fetch");
  const { id } = parseInput(researchIdInput, input);
  const job = await withVisibleJob(ctx, id, { kind: "crawl" }, async (_tx, row) => row);
  if (isUnattended(job, ctx.now())) wakeResearchWorker(ctx);
  return toCrawlJobView(job);
}

/** Cancels a crawl job: the pages read so far stay in its result. */
export async function cancelCrawlJob({
  ctx,
  input,
}: VerbArgs<TenantContext, typeof researchIdInput>): Promise<CrawlJobView> {
  assertScope(ctx, "fetch");
  const { id } = parseInput(researchIdInput, input);
  return toCrawlJobView(await cancelJob(ctx, "crawl", id));
}

/** The caller's most recent crawl jobs, newest first (MCP's tasks/list). */
export async function listCrawlJobs({
  ctx,
  limit,
}: {
  ctx: TenantContext;
  limit: number;
}): Promise<CrawlJobView[]> {
  assertScope(ctx, "fetch");
  return (await listJobs(ctx, "crawl", limit)).map(toCrawlJobView);
}
