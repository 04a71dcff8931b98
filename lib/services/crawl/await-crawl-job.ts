import type { TenantContext } from "@/lib/pipeline/context";
import { ServiceError, type ServiceErrorCode } from "@/lib/pipeline/errors";
import { awaitJob } from "@/lib/services/research/await-job";
import type { CrawlJobView } from "./crawl-job-view";
import { getCrawlJob } from "./get-crawl-job";

/** A crawl job that succeeded: the whole result, as a synchronous crawl answers it. */
type FinishedCrawlJob = CrawlJobView & { stopped: NonNullable<CrawlJobView["stopped"]>; trace_id: string };

const CODES: readonly ServiceErrorCode[] = [
  "invalid_input",
  "not_found",
  "all_providers_failed",
  "rate_limited",
];

/**
 * Waits for a crawl job (await-job.ts) and answers its result as a synchronous crawl would: a failed job is
 * the error it failed with (its code kept: a start page its site says is missing stays not_found), a
 * cancelled one a conflict.
 */
export async function awaitCrawlJob({
  ctx,
  input,
  signal,
}: {
  ctx: TenantContext;
  input: { id: string };
  signal?: AbortSignal;
}): Promise<FinishedCrawlJob> {
  const job = await awaitJob(() => getCrawlJob({ ctx, input }), { signal });
  const { stopped, trace_id } = job;
  if (job.status === "succeeded" && stopped && trace_id) return { ...job, stopped, trace_id };
  if (job.status === "cancelled") throw new ServiceError("conflict", `crawl job ${job.id} was cancelled`);
  const [code, ...rest] = (job.error ?? "").split(": ");
  const known = CODES.find((candidate) => candidate === code);
  throw new ServiceError(known ?? "all_providers_failed", known ? rest.join(": ") : (job.error ?? "failed"));
}
