import { sql } from "drizzle-orm";
import { queryRows, type Tx } from "@/lib/db";
import type { Platform } from "@/lib/pipeline/context";

/**
 * A transaction-level advisory lock named after the job, taken without waiting: with several instances
 * on one database only one runs a job at a time, the others skip it. It ends with the transaction, so a
 * pooled connection never keeps it, and a crashed instance never leaves it behind.
 */
async function tryJobLock(tx: Tx, name: string): Promise<boolean> {
  const [row] = await queryRows<{ locked: boolean }>(
    tx,
    sql`select pg_try_advisory_xact_lock(hashtext(${`searchmux.job.${name}`})) as locked`,
  );
  return row?.locked === true;
}

/**
 * A background job that is one statement in a system transaction holding the job's lock: resolves to the
 * statement's count, or null when another instance (or an overlapping run here) holds the lock.
 */
export function lockedStatement(name: string, work: (tx: Tx, now: Date) => Promise<number>) {
  return (ctx: Pick<Platform, "db" | "now">): Promise<number | null> =>
    ctx.db.withSystem(async (tx) => ((await tryJobLock(tx, name)) ? work(tx, ctx.now()) : null));
}
