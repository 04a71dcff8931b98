/**
 * What every app instance runs besides requests: opens the database early so the first request does
 * not wait, refunds every minute the budget reservations of calls that never settled (a crashed
 * instance), prunes traces past their tenant's retention every hour, and writes pending traces on exit.
 */

import { log } from "@/lib/observability/logger";
import { sweepExpiredReservations } from "./budgets/admission";
import { flushPendingWrites, platform } from "./platform";
import { markShuttingDown } from "./shutdown";
import { pruneTraces } from "./traces/prune-traces";

const SWEEP_INTERVAL_MS = 60_000;
const PRUNE_INTERVAL_MS = 3_600_000;

const report = (what: string) => (error: unknown) => log().error(error, what);

export async function startBackgroundTasks(): Promise<void> {
  await platform().catch(report("database unavailable at start"));
  setInterval(() => {
    platform()
      .then((ctx) => sweepExpiredReservations(ctx))
      .catch(report("reservation sweep failed"));
  }, SWEEP_INTERVAL_MS).unref();
  setInterval(() => {
    platform()
      .then((ctx) => pruneTraces({ ctx }))
      .catch(report("trace pruning failed"));
  }, PRUNE_INTERVAL_MS).unref();
  process.once("beforeExit", () => void flushPendingWrites());
  // `next start` closes the server on SIGTERM, awaiting responses and their after() tasks (which write
  // their traces); this starts writing whatever else is queued at once, alongside, and tells keep-alive
  // clients to let go of their connections (shutdown.ts).
  process.once("SIGTERM", () => {
    markShuttingDown();
    void flushPendingWrites().catch(report("flushing traces and usage on shutdown failed"));
  });
}
