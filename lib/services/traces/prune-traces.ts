import { sql } from "drizzle-orm";
import { queryRows } from "@/lib/db";
import type { Platform } from "@/lib/services/context";

/** Deletes traces (and their spans) older than each tenant's retention (default 30 days); returns how many. */
export async function pruneTraces({ ctx }: { ctx: Pick<Platform, "db" | "now"> }): Promise<number> {
  const [row] = await ctx.db.withSystem((tx) =>
    queryRows<{ deleted: string }>(
      tx,
      sql`with deleted as (
            delete from traces t using tenants x
             where t.tenant_id = x.id
               and t.created_at < ${ctx.now().toISOString()}::timestamptz - make_interval(days => x.trace_retention_days)
            returning 1)
          select count(*) as deleted from deleted`,
    ),
  );
  return Number(row?.deleted ?? 0);
}
