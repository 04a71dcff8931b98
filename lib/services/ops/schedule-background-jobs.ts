import { log } from "@/lib/observability/logger";
import type { Env } from "@/lib/pipeline/capabilities";
import { BACKGROUND_JOBS, type BackgroundJob, type BackgroundJobName } from "./background-jobs";

export interface ScheduleOptions {
  /** VERCEL set: nothing is scheduled (Vercel Cron calls the routes; a function must not hold timers). */
  env: Env;
  /** Runs one job once (normally runBackgroundJob on the process's platform). */
  run(name: BackgroundJobName): Promise<unknown>;
  /** The jobs and their intervals (tests shorten them). */
  jobs?: readonly (Pick<BackgroundJob, "everyMs" | "overlap"> & { name: BackgroundJobName })[];
}

/**
 * The long-running server's timers for the background jobs. Each job runs every `everyMs`, at most
 * `overlap` runs at once in this process (one unless the job says more; a tick while that many still run is
 * skipped); across instances the job's lock or its leases decide (run-background-job.ts). Timers are
 * unref'd, so they never keep a process alive.
 * Returns the timers, for clearInterval.
 */
export function scheduleBackgroundJobs({
  env,
  run,
  jobs = BACKGROUND_JOBS,
}: ScheduleOptions): NodeJS.Timeout[] {
  if (env.VERCEL?.trim()) return [];
  return jobs.map(({ name, everyMs, overlap = 1 }) => {
    let running = 0;
    const timer = setInterval(() => {
      if (running >= overlap) return;
      running += 1;
      run(name)
        .catch((error: unknown) => log().error(error, `background job ${name} failed`))
        .finally(() => {
          running -= 1;
        });
    }, everyMs);
    timer.unref();
    return timer;
  });
}
