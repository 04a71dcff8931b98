import { sql } from "drizzle-orm";
import { queryRows, type Tx } from "@/lib/db";
import type { Platform } from "@/lib/services/context";

/** Deletes, in `tx` (a system transaction), traces (and their spans) older than each tenant's retention at `now`. */
export async function deleteExpiredTraces(tx: Tx, now: Date): Promise<number> {
  const [row] = await queryRows<{ deleted: string }>(
    tx,
    sql`with deleted as (
          delete from traces t using tenants x
           where t.tenant_id = x.id
             and t.created_at < ${now.toISOString()}::timestamptz - make_interval(days => x.trace_retention_days)
          returning 1)
        select count(*) as deleted from deleted`,
  );
  return Number(row?.deleted ?? 0);
}

/** Deletes traces (and their spans) older than each tenant's retention (default 30 days); returns how many. */
export function pruneTraces({ ctx }: { ctx: Pick<Platform, "db" | "now"> }): Promise<number> {
  return ctx.db.withSystem((tx) => deleteExpiredTraces(tx, ctx.now()));
}
