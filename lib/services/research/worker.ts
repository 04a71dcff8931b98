/**
 * The job worker of this instance: claims jobs (job-lease.ts) and runs them (run-research-job.ts, and
 * crawl/run-crawl-job.ts for crawl jobs),
 * at most `concurrency` at once, renewing each lease on a heartbeat that also notices cancellation. One slot is
 * kept from any one workspace and from crawl jobs (`fairShare`): a workspace's jobs, or long crawls, never
 * hold every slot of an instance while another workspace's job or a research job waits; claims are made one
 * at a time, so the shares hold under concurrent wakes. It
 * wakes when this instance queues a job, when a status read finds a job nobody runs (get-research.ts), and
 * for the `resume-research` background job (resume-research.ts): every few seconds on a long-running server,
 * from Vercel Cron through `/api/cron/resume-research` on serverless hosts, where the requests that wake it
 * also keep their function alive until it is idle (lib/api/research-work.ts).
 */
import { randomUUID } from "node:crypto";
import { log } from "@/lib/observability/logger";
import type { Platform } from "@/lib/pipeline/context";
import { runCrawlJob } from "@/lib/services/crawl/run-crawl-job";
import { type ClaimSkip, claimJob, type JobRow, renewLease, writeJob } from "./job-lease";
import { CANCELLED, runResearchJob } from "./run-research-job";

/** Each kind of job's run (the rows share the lease machinery: job-lease.ts). */
const RUNNERS = { research: runResearchJob, crawl: runCrawlJob } as const;

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
  // Three, one of them kept from any one workspace and from crawls: a lone workspace still runs two at once.
  concurrency: 3,
  leaseMs: 30_000,
  heartbeatMs: 5_000,
  maxAttempts: 3,
};

export interface ResearchWorker {
  /** Starts claiming jobs, up to the concurrency, until none is left. */
  wake(platform: Platform): void;
  /**
   * Claims as many jobs as the concurrency has room for, now, and runs each (and only it) in the background;
   * resolves to how many it claimed. A bounded batch: the function that asked ends with those jobs.
   */
  takeJobs(platform: Platform): Promise<number>;
  /** Resolves when nothing runs (after a wake, once the jobs it found are done). */
  idle(): Promise<void>;
  /** This worker's lease name. */
  readonly owner: string;
}

/**
 * The slots one workspace may hold of an instance's `concurrency`, and crawl jobs together: all but one, so a
 * job of another workspace, or a research job, always finds a slot (with one slot, that one).
 */
export const fairShare = (concurrency: number) => Math.max(1, concurrency - 1);

function platformOf(ctx: Platform): Platform {
  const { db, kv, records, admissions, keyring, env, traces, usage, pending, breakers, learner, now } = ctx;
  return { db, kv, records, admissions, keyring, env, traces, usage, pending, breakers, learner, now };
}

export function createResearchWorker(settings: WorkerSettings = DEFAULT_WORKER_SETTINGS): ResearchWorker {
  const owner = `${process.pid}:${randomUUID()}`;
  /** Slots of the concurrency in use: a job running, or a claim on its way. */
  let busy = 0;
  const waiters: Array<() => void> = [];
  /** The jobs this instance runs, by id: the shares the next claim keeps to. */
  const held = new Map<string, Pick<JobRow, "tenantId" | "kind">>();
  /** Claims one at a time: each sees what the one before it took. */
  let claiming: Promise<unknown> = Promise.resolve();

  /** What this instance holds its fair share of already. */
  function skipped(): ClaimSkip {
    const share = fairShare(settings.concurrency);
    const perTenant = new Map<string, number>();
    let crawls = 0;
    for (const job of held.values()) {
      perTenant.set(job.tenantId, (perTenant.get(job.tenantId) ?? 0) + 1);
      if (job.kind === "crawl") crawls += 1;
    }
    return {
      tenants: [...perTenant].filter(([, n]) => n >= share).map(([tenantId]) => tenantId),
      crawls: crawls >= share,
    };
  }

  /** Claims a job within the shares and counts it held until `runClaimed` lets it go. */
  function claimNext(platform: Platform): Promise<JobRow | undefined> {
    const claim = claiming.then(async () => {
      const row = await claimJob(platform.db, owner, settings.leaseMs, skipped());
      if (row) held.set(row.id, { tenantId: row.tenantId, kind: row.kind });
      return row;
    });
    claiming = claim.catch(() => {});
    return claim;
  }

  /** Takes a slot; the function returned gives it back. */
  function takeSlot(): () => void {
    busy += 1;
    return () => {
      busy -= 1;
      if (busy === 0) for (const resolve of waiters.splice(0)) resolve();
    };
  }

  async function loop(platform: Platform): Promise<void> {
    for (;;) {
      const row = await claimNext(platform);
      if (!row) return;
      await runClaimed(platform, row);
    }
  }

  async function runClaimed(platform: Platform, row: JobRow): Promise<void> {
    try {
      await runHeld(platform, row);
    } finally {
      held.delete(row.id);
    }
  }

  async function runHeld(platform: Platform, row: JobRow): Promise<void> {
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
      await RUNNERS[row.kind](platform, row, { owner, signal: control.signal });
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
      while (busy < settings.concurrency) {
        const release = takeSlot();
        void loop(platform)
          .catch((error) => log().error({ err: error }, "research worker failed"))
          .finally(release);
      }
    },
    async takeJobs(ctx) {
      const platform = platformOf(ctx);
      let claimed = 0;
      while (busy < settings.concurrency) {
        const release = takeSlot();
        const row = await claimNext(platform).catch((error: unknown) => {
          release();
          throw error;
        });
        if (!row) {
          release();
          break;
        }
        claimed += 1;
        void runClaimed(platform, row)
          .catch((error) => log().error({ err: error, job: row.id }, "research worker failed"))
          .finally(release);
      }
      return claimed;
    },
    idle: () => (busy === 0 ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve))),
  };
}

// One per process (Next.js bundles routes separately).
const shared = globalThis as typeof globalThis & { searchmuxResearchWorker?: ResearchWorker };

export function researchWorker(): ResearchWorker {
  shared.searchmuxResearchWorker ??= createResearchWorker();
  return shared.searchmuxResearchWorker;
}

/** Wakes this instance's worker: a job was queued here, or found with nobody running it. */
export function wakeResearchWorker(ctx: Platform): void {
  researchWorker().wake(ctx);
}
