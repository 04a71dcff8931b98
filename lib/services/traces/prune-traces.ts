import { sql } from "drizzle-orm";
import { queryRows, type Tx } from "@/lib/db";
import type { Platform } from "@/lib/pipeline/context";

/**
 * Deletes, in `tx` (a system transaction), traces (and their spans) older than each tenant's retention at
 * `now`, and the research jobs that ended before it (a job's report goes with its trace).
 */
export async function deleteExpiredTraces(tx: Tx, now: Date): Promise<number> {
  const cutoff = sql`${now.toISOString()}::timestamptz - make_interval(days => x.trace_retention_days)`;
  const [row] = await queryRows<{ deleted: string }>(
    tx,
    sql`with traces_deleted as (
          delete from traces t using tenants x
           where t.tenant_id = x.id and t.created_at < ${cutoff}
          returning 1),
        jobs_deleted as (
          delete from research_jobs j using tenants x
           where j.tenant_id = x.id and j.finished_at < ${cutoff}
          returning 1)
        select (select count(*) from traces_deleted) + (select count(*) from jobs_deleted) as deleted`,
  );
  return Number(row?.deleted ?? 0);
}

/** Deletes traces and ended research jobs older than each tenant's retention (default 30 days); returns how many. */
export function pruneTraces({ ctx }: { ctx: Pick<Platform, "db" | "now"> }): Promise<number> {
  return ctx.db.withSystem((tx) => deleteExpiredTraces(tx, ctx.now()));
}
