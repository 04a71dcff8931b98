/**
 * The background jobs, run by the long-running server on its own timers (schedule-background-jobs.ts) and,
 * on Vercel, by Vercel Cron through `/api/cron/<name>` on the schedule of `vercel.json` (tests check the
 * two agree). Most are one statement in a system transaction under the job's lock (locked-statement.ts);
 * resuming research jobs and sending webhook deliveries are claims under leases, safe to run anywhere at once.
 */

import { refundExpiredReservations } from "@/lib/pipeline/budgets/admission";
import type { Platform } from "@/lib/pipeline/context";
import { deleteEndedOAuthRecords } from "@/lib/services/oauth/prune-oauth";
import { resumeResearchJobs } from "@/lib/services/research/resume-research";
import { deleteExpiredTraces } from "@/lib/services/traces/prune-traces";
import { deliverWebhooks } from "@/lib/services/webhooks/deliver-webhooks";
import { lockedStatement } from "./locked-statement";

export interface BackgroundJob {
  name: string;
  /** What `count` in its result counts. */
  counts: string;
  /** How often a long-running server runs it. */
  everyMs: number;
  /**
   * Runs of it a long-running server keeps going at once (1 unless set): a tick while that many still run is
   * skipped. More than one for work whose run may wait long on others (webhook receivers) while new work
   * comes due; safe only for work claimed under leases.
   */
  overlap?: number;
  /**
   * Vercel Cron's schedule: within minutes for what a user waits on (a refund, a research job), daily for the
   * pruning. A schedule more often than daily needs the Pro plan (a Hobby project edits it to daily: README,
   * "Background jobs"); the work is idempotent, and a later run catches up.
   */
  vercelSchedule: string;
  /** Runs the job once: how many rows or jobs it handled, or null when another instance holds it. */
  run(ctx: Platform): Promise<number | null>;
}

export const BACKGROUND_JOBS = [
  {
    // A reservation outlives its call only when the instance died mid-call (or a function was cut off at
    // maxDuration); until refunded it holds its charge against the budget.
    name: "sweep-reservations",
    counts: "reservations refunded",
    everyMs: 60_000,
    vercelSchedule: "*/5 * * * *",
    run: lockedStatement("sweep-reservations", refundExpiredReservations),
  },
  {
    // Queued jobs no instance claimed and running ones whose instance died (resume-research.ts). A
    // long-running server also picks up jobs other instances queued.
    name: "resume-research",
    counts: "research jobs claimed",
    everyMs: 5_000,
    vercelSchedule: "* * * * *",
    run: resumeResearchJobs,
  },
  {
    // Webhook deliveries due (a new event, a retry's time) and those a dead instance was sending
    // (deliver-webhooks.ts); leases make it safe to run anywhere at once. A run waits for its slowest
    // receiver (up to 10 s): up to three run at once, so slow receivers delay others' events by a tick.
    name: "deliver-webhooks",
    counts: "webhook deliveries sent",
    everyMs: 5_000,
    overlap: 3,
    vercelSchedule: "* * * * *",
    run: deliverWebhooks,
  },
  {
    name: "prune-traces",
    counts: "traces and research jobs deleted",
    everyMs: 3_600_000,
    vercelSchedule: "30 3 * * *",
    run: lockedStatement("prune-traces", deleteExpiredTraces),
  },
  {
    // Codes, refresh tokens, connected apps and clients that can no longer be used (prune-oauth.ts).
    name: "prune-oauth",
    counts: "OAuth records deleted",
    everyMs: 3_600_000,
    vercelSchedule: "0 4 * * *",
    run: lockedStatement("prune-oauth", deleteEndedOAuthRecords),
  },
] as const satisfies readonly BackgroundJob[];

export type BackgroundJobName = (typeof BACKGROUND_JOBS)[number]["name"];

export function backgroundJob(name: BackgroundJobName): BackgroundJob {
  const job = BACKGROUND_JOBS.find((candidate) => candidate.name === name);
  if (!job) throw new Error(`unknown background job ${name}`);
  return job;
}

/** The route Vercel Cron (or any scheduler) calls to run `name`. */
export const cronPath = (name: BackgroundJobName) => `/api/cron/${name}`;
