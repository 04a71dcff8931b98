/**
 * The research worker of this instance: claims jobs (job-lease.ts) and runs them (run-research-job.ts),
 * at most `concurrency` at once, renewing each lease on a heartbeat that also notices cancellation. It
 * wakes when this instance queues a job, and (long-running servers) on a timer that picks up jobs queued
 * elsewhere or abandoned by an instance that died; on serverless hosts the request that queued a job keeps
 * its function alive until the worker is idle (lib/api), and the cron route resumes abandoned jobs.
 */
import { randomUUID } from "node:crypto";
import { log } from "@/lib/observability/logger";
import type { Env, Platform } from "@/lib/pipeline/context";
import { claimJob, type JobRow, renewLease, writeJob } from "./job-lease";
import { CANCELLED, runResearchJob } from "./run-research-job";

export interface WorkerSettings {
  /** Jobs run at once by this instance. */
  concurrency: number;
  /** How long a claim holds without renewal: after it lapses another instance may take the job over. */
  leaseMs: number;
  /** How often a running job renews its lease and checks for cancellation. */
  heartbeatMs: number;
  /** Claims of one job before it is failed rather than taken over again (an instance keeps dying on it). */
  maxAttempts: number;
}

export const DEFAULT_WORKER_SETTINGS: WorkerSettings = {
  concurrency: 2,
  leaseMs: 30_000,
  heartbeatMs: 5_000,
  maxAttempts: 3,
};

export interface ResearchWorker {
  /** Starts claiming jobs, up to the concurrency, until none is left. */
  wake(platform: Platform): void;
  /** Resolves when nothing runs (after a wake, once the jobs it found are done). */
  idle(): Promise<void>;
  /** This worker's lease name. */
  readonly owner: string;
}

function platformOf(ctx: Platform): Platform {
  const { db, kv, records, admissions, keyring, env, traces, usage, breakers, learner, now } = ctx;
  return { db, kv, records, admissions, keyring, env, traces, usage, breakers, learner, now };
}

export function createResearchWorker(settings: WorkerSettings = DEFAULT_WORKER_SETTINGS): ResearchWorker {
  const owner = `${process.pid}:${randomUUID()}`;
  let loops = 0;
  const waiters: Array<() => void> = [];

  async function loop(platform: Platform): Promise<void> {
    for (;;) {
      const row = await claimJob(platform.db, owner, settings.leaseMs);
      if (!row) return;
      await runClaimed(platform, row);
    }
  }

  async function runClaimed(platform: Platform, row: JobRow): Promise<void> {
    const job = { id: row.id, owner };
    if (row.attempts > settings.maxAttempts) {
      await writeJob(platform.db, job, {
        status: "failed",
        error: `interrupted ${settings.maxAttempts} times (the instances running it stopped); not tried again`,
      });
      return;
    }
    const control = new AbortController();
    if (row.cancelRequested) control.abort(CANCELLED);
    const heartbeat = setInterval(() => {
      renewLease(platform.db, job, settings.leaseMs)
        .then((lease) => {
          if (lease === null) control.abort(new Error("the job's lease was lost"));
          else if (lease.cancelRequested) control.abort(CANCELLED);
        })
        .catch((error) => log().warn({ err: error, job: row.id }, "research lease renewal failed"));
    }, settings.heartbeatMs);
    heartbeat.unref?.();
    try {
      await runResearchJob(platform, row, { owner, signal: control.signal });
    } catch (error) {
      log().error({ err: error, job: row.id }, "research job crashed");
    } finally {
      clearInterval(heartbeat);
    }
  }

  return {
    owner,
    wake(ctx) {
      const platform = platformOf(ctx);
      while (loops < settings.concurrency) {
        loops += 1;
        void loop(platform)
          .catch((error) => log().error({ err: error }, "research worker failed"))
          .finally(() => {
            loops -= 1;
            if (loops === 0) for (const resolve of waiters.splice(0)) resolve();
          });
      }
    },
    idle: () => (loops === 0 ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve))),
  };
}

// One per process (Next.js bundles routes separately).
const shared = globalThis as typeof globalThis & { searchmuxResearchWorker?: ResearchWorker };

export function researchWorker(): ResearchWorker {
  shared.searchmuxResearchWorker ??= createResearchWorker();
  return shared.searchmuxResearchWorker;
}

/** How often a long-running server looks for jobs queued elsewhere or abandoned by a dead instance. */
const JOB_POLL_MS = 5_000;

/**
 * The long-running server's timer (never on serverless hosts: a function must not hold timers). The wake
 * on start picks up the jobs of an instance that died; the timer, those whose lease lapses later.
 */
export function pollResearchJobs(platform: () => Promise<Platform>, env: Env): NodeJS.Timeout | undefined {
  if (env.VERCEL?.trim()) return undefined;
  const wake = () =>
    platform()
      .then((ctx) => researchWorker().wake(ctx))
      .catch((error: unknown) => log().error(error, "research worker could not start"));
  void wake();
  const timer = setInterval(wake, JOB_POLL_MS);
  timer.unref();
  return timer;
}

/** Wakes this instance's worker: a job was queued here. */
export function wakeResearchWorker(ctx: Platform): void {
  researchWorker().wake(ctx);
}
