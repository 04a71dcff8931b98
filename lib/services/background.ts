/**
 * What every long-running app instance runs besides requests: opens the database early so the first
 * request does not wait and checks there that the key-encryption keys read what is stored (logged once when
 * they do not; /api/ready then answers 503, pipeline/keys/key-check.ts), runs the background jobs on their
 * timers (ops/: looks for research jobs to run every 5 seconds, refunds reservations of calls that never
 * settled every minute, prunes traces past their tenant's retention every hour; on Vercel, Vercel Cron runs
 * them instead), and writes pending traces on exit.
 */

import { log } from "@/lib/observability/logger";
import { keyringVerdict } from "@/lib/pipeline/keys/key-check";
import { flushPendingWrites, platform } from "@/lib/pipeline/platform";
import { markShuttingDown } from "@/lib/pipeline/shutdown";
import { runBackgroundJob } from "./ops/run-background-job";
import { scheduleBackgroundJobs } from "./ops/schedule-background-jobs";

const report = (what: string) => (error: unknown) => log().error(error, what);

export async function startBackgroundTasks(): Promise<void> {
  const ctx = await platform().catch(report("database unavailable at start"));
  if (ctx) await keyringVerdict(ctx.db, ctx.keyring).catch(report("checking the key-encryption keys failed"));
  scheduleBackgroundJobs({
    env: process.env,
    run: async (name) => runBackgroundJob({ ctx: await platform(), input: { name } }),
  });
  process.once("beforeExit", () => void flushPendingWrites());
  // `next start` closes the server on SIGTERM, awaiting responses and their after() tasks (which write
  // their traces); this starts writing whatever else is queued at once, alongside, and tells keep-alive
  // clients to let go of their connections (shutdown.ts).
  process.once("SIGTERM", () => {
    markShuttingDown();
    void flushPendingWrites().catch(report("flushing traces and usage on shutdown failed"));
  });
}
