/**
 * The background jobs: each is one statement in a system transaction, run by the long-running server on
 * its own timer (schedule-background-jobs.ts) and, on Vercel, by Vercel Cron through
 * `/api/cron/<name>` on the schedule of `vercel.json` (tests check the two agree).
 */
import type { Tx } from "@/lib/db";
import { refundExpiredReservations } from "@/lib/pipeline/budgets/admission";
import { deleteEndedOAuthRecords } from "@/lib/services/oauth/prune-oauth";
import { deleteExpiredTraces } from "@/lib/services/traces/prune-traces";

export interface BackgroundJob {
  name: string;
  /** What `count` in its result counts. */
  counts: string;
  /** How often a long-running server runs it. */
  everyMs: number;
  /**
   * Vercel Cron's schedule. Daily, so that `vercel.json` deploys on every plan (Hobby allows daily jobs
   * only); the work is idempotent, and a later run catches up.
   */
  vercelSchedule: string;
  /** The work, in the system transaction that holds the job's lock; resolves to how many rows it changed. */
  work(tx: Tx, now: Date): Promise<number>;
}

export const BACKGROUND_JOBS = [
  {
    // A reservation outlives its call only when the instance died mid-call (or a function was cut off at
    // maxDuration); until refunded it holds its charge against the budget.
    name: "sweep-reservations",
    counts: "reservations refunded",
    everyMs: 60_000,
    vercelSchedule: "0 3 * * *",
    work: refundExpiredReservations,
  },
  {
    name: "prune-traces",
    counts: "traces and research jobs deleted",
    everyMs: 3_600_000,
    vercelSchedule: "30 3 * * *",
    work: deleteExpiredTraces,
  },
  {
    // Codes, refresh tokens, connected apps and clients that can no longer be used (prune-oauth.ts).
    name: "prune-oauth",
    counts: "OAuth records deleted",
    everyMs: 3_600_000,
    vercelSchedule: "0 4 * * *",
    work: deleteEndedOAuthRecords,
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
