import { sql } from "drizzle-orm";
import { queryRows, type Tx } from "@/lib/db";
import { log } from "@/lib/observability/logger";
import type { Platform } from "@/lib/pipeline/context";
import { type BackgroundJobName, backgroundJob } from "./background-jobs";

export interface BackgroundJobRun {
  job: BackgroundJobName;
  /** False when another instance (or an overlapping run here) held the job's lock: it ran there instead. */
  ran: boolean;
  /** What the job counts (reservations refunded, traces deleted); 0 when it did not run. */
  count: number;
  duration_ms: number;
}

/**
 * A transaction-level advisory lock named after the job, taken without waiting: with several instances
 * on one database only one runs a job at a time, the others skip it. It ends with the transaction, so a
 * pooled connection never keeps it, and a crashed instance never leaves it behind.
 */
async function tryJobLock(tx: Tx, name: BackgroundJobName): Promise<boolean> {
  const [row] = await queryRows<{ locked: boolean }>(
    tx,
    sql`select pg_try_advisory_xact_lock(hashtext(${`searchmux.job.${name}`})) as locked`,
  );
  return row?.locked === true;
}

/** Runs a background job once (an operator's work: no tenant, no scope), unless it is running elsewhere. */
export async function runBackgroundJob({
  ctx,
  input,
}: {
  ctx: Pick<Platform, "db" | "now">;
  input: { name: BackgroundJobName };
}): Promise<BackgroundJobRun> {
  const job = backgroundJob(input.name);
  const started = performance.now();
  const count = await ctx.db.withSystem(async (tx) =>
    (await tryJobLock(tx, input.name)) ? job.work(tx, ctx.now()) : null,
  );
  const run = {
    job: input.name,
    ran: count !== null,
    count: count ?? 0,
    duration_ms: Math.round(performance.now() - started),
  };
  if (run.count > 0) log().info({ ...run, counts: job.counts }, "background job done");
  return run;
}
