/**
 * The lease that makes a research job run on one instance at a time and survive any one of them. A worker
 * claims a job (queued, or running with a lapsed lease: its instance died) by writing its own name and a
 * lease expiry; it renews the lease while it works, and every write it makes afterwards is fenced by its
 * name, so a worker that lost its lease (paused past expiry, then resumed) changes nothing. Times are the
 * database's clock, the one clock every instance shares.
 */
import { and, asc, count, eq, gte, lt, ne, notInArray, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Database } from "@/lib/db";
import { researchJobs } from "@/lib/db/schema";

export type JobRow = typeof researchJobs.$inferSelect;

const leaseUntil = (leaseMs: number) => sql`now() + ${`${leaseMs} milliseconds`}::interval`;

const sibling = alias(researchJobs, "sibling");

/** Jobs a claim leaves for others: of these workspaces, and crawl jobs when `crawls`. */
export interface ClaimSkip {
  tenants: readonly string[];
  crawls: boolean;
}

const NOTHING_SKIPPED: ClaimSkip = { tenants: [], crawls: false };

/**
 * Claims a job for `owner`, or nothing when there is none: the oldest claimable job of the workspaces
 * with the fewest jobs running (under a live lease) at the moment. A workspace's burst thus never holds
 * every worker slot while another workspace waits: each free slot goes to the least-served workspace
 * first, and within a workspace jobs run oldest first. `skip` leaves out what the claiming instance holds its
 * share of already (worker.ts): the workspaces named, and crawl jobs.
 */
export async function claimJob(
  db: Database,
  owner: string,
  leaseMs: number,
  skip: ClaimSkip = NOTHING_SKIPPED,
): Promise<JobRow | undefined> {
  return db.withSystem(async (tx) => {
    const runningInWorkspace = tx
      .select({ n: count() })
      .from(sibling)
      .where(
        and(
          eq(sibling.tenantId, researchJobs.tenantId),
          eq(sibling.status, "running"),
          gte(sibling.leaseExpiresAt, sql`now()`),
        ),
      );
    const [candidate] = await tx
      .select({ id: researchJobs.id })
      .from(researchJobs)
      .where(
        and(
          or(
            eq(researchJobs.status, "queued"),
            and(eq(researchJobs.status, "running"), lt(researchJobs.leaseExpiresAt, sql`now()`)),
          ),
          skip.tenants.length > 0 ? notInArray(researchJobs.tenantId, [...skip.tenants]) : undefined,
          skip.crawls ? ne(researchJobs.kind, "crawl") : undefined,
        ),
      )
      .orderBy(sql`(${runningInWorkspace})`, asc(researchJobs.createdAt))
      .limit(1)
      .for("update", { skipLocked: true });
    if (!candidate) return undefined;
    const [claimed] = await tx
      .update(researchJobs)
      .set({
        status: "running",
        leaseOwner: owner,
        leaseExpiresAt: leaseUntil(leaseMs),
        attempts: sql`${researchJobs.attempts} + 1`,
        startedAt: sql`coalesce(${researchJobs.startedAt}, now())`,
        updatedAt: sql`now()`,
      })
      .where(eq(researchJobs.id, candidate.id))
      .returning();
    return claimed;
  });
}

/**
 * Whether nobody runs the job: queued and not yet claimed, or running under a lease that lapsed (its instance
 * died, or a serverless function was frozen or cut off). By `now` of the reader: a clock ahead of the
 * database's wakes a worker that then finds nothing to claim, one behind delays the wake by as much.
 */
export function isUnattended(row: JobRow, now: Date): boolean {
  if (row.status === "queued") return true;
  return row.status === "running" && row.leaseExpiresAt !== null && row.leaseExpiresAt < now;
}

const held = (id: string, owner: string) =>
  and(eq(researchJobs.id, id), eq(researchJobs.leaseOwner, owner), eq(researchJobs.status, "running"));

/** Renews the lease; null when it is no longer ours (taken over, or the job ended elsewhere). */
export async function renewLease(
  db: Database,
  job: { id: string; owner: string },
  leaseMs: number,
): Promise<{ cancelRequested: boolean } | null> {
  const [row] = await db.withSystem((tx) =>
    tx
      .update(researchJobs)
      .set({ leaseExpiresAt: leaseUntil(leaseMs) })
      .where(held(job.id, job.owner))
      .returning({ cancelRequested: researchJobs.cancelRequested }),
  );
  return row ?? null;
}

export type JobUpdate = Partial<
  Pick<
    typeof researchJobs.$inferInsert,
    "state" | "progress" | "status" | "report" | "sources" | "partial" | "stopReason" | "error" | "traceId"
  >
>;

/**
 * Writes a checkpoint or the outcome, only while the lease is ours; an outcome (a finished status) also
 * releases the lease. False when the job is no longer ours: the caller stops.
 */
export async function writeJob(
  db: Database,
  job: { id: string; owner: string },
  update: JobUpdate,
): Promise<boolean> {
  const finished = update.status !== undefined && update.status !== "running";
  const rows = await db.withSystem((tx) =>
    tx
      .update(researchJobs)
      .set({
        ...update,
        updatedAt: sql`now()`,
        ...(finished && { finishedAt: sql`now()`, leaseOwner: null, leaseExpiresAt: null }),
      })
      .where(held(job.id, job.owner))
      .returning({ id: researchJobs.id }),
  );
  return rows.length > 0;
}
