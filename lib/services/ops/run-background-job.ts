import { log } from "@/lib/observability/logger";
import type { Platform } from "@/lib/pipeline/context";
import { type BackgroundJobName, backgroundJob } from "./background-jobs";

export interface BackgroundJobRun {
  job: BackgroundJobName;
  /** False when another instance (or an overlapping run here) held the job's lock: it ran there instead. */
  ran: boolean;
  /** What the job counts (reservations refunded, traces deleted, research jobs claimed); 0 when it did not run. */
  count: number;
  duration_ms: number;
}

/** Runs a background job once (an operator's work: no tenant, no scope), unless it is running elsewhere. */
export async function runBackgroundJob({
  ctx,
  input,
}: {
  ctx: Platform;
  input: { name: BackgroundJobName };
}): Promise<BackgroundJobRun> {
  const job = backgroundJob(input.name);
  const started = performance.now();
  const count = await job.run(ctx);
  const run = {
    job: input.name,
    ran: count !== null,
    count: count ?? 0,
    duration_ms: Math.round(performance.now() - started),
  };
  if (run.count > 0) log().info({ ...run, counts: job.counts }, "background job done");
  return run;
}
