/**
 * Usage that no budget limits (the deferred charges of settled calls) is added to the counters in
 * batches: one upsert per batch, summed per counter row, so concurrent calls never queue on the same
 * rows (the `*` counters above all). Budgeted counters are charged at admission instead (admission.ts).
 * Like traces, a batch is written shortly after it fills, after each response, and on shutdown; readers
 * of usage flush first, so an instance always reads its own writes.
 *
 * Calls close their reservations after they answer, off the response path (PendingWork): flushing waits
 * for those closings too, so a reader never sees a call's charge before its refund or settled usage.
 */
import { sql } from "drizzle-orm";
import type { Database } from "@/lib/db";
import { log } from "@/lib/observability/logger";
import type { PendingWork, UsageSink } from "@/lib/pipeline/capabilities";

const FLUSH_DELAY_MS = 50;

export function createUsageSink(db: Database, pendingWork: PendingWork): UsageSink {
  /** Summed amounts by `tenant|provider|metric|period_key`. */
  let pending = new Map<string, number>();
  let writing: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;

  async function write(batch: Map<string, number>): Promise<void> {
    const rows = [...batch].map(([key, amount]) => {
      const [tenant_id, provider, metric, period_key] = key.split("|");
      return { tenant_id, provider, metric, period_key, amount };
    });
    await db.withSystem((tx) =>
      tx.execute(sql`
        insert into usage_counters as c (tenant_id, provider, metric, period_key, used)
        select r.tenant_id, r.provider, r.metric::budget_metric, r.period_key, r.amount
          from json_to_recordset(${JSON.stringify(rows)}::json)
            as r(tenant_id uuid, provider text, metric text, period_key text, amount bigint)
        on conflict (tenant_id, provider, metric, period_key) do update
           set used = c.used + excluded.used, updated_at = now()`),
    );
  }

  async function flush(): Promise<void> {
    await pendingWork.settled();
    clearTimeout(timer);
    timer = undefined;
    writing = writing.then(async () => {
      if (pending.size === 0 || db.closed) return;
      const batch = pending;
      pending = new Map();
      try {
        await write(batch);
      } catch (error) {
        // Put the amounts back (merged with anything added meanwhile) and try again shortly.
        for (const [key, amount] of batch) pending.set(key, (pending.get(key) ?? 0) + amount);
        log().warn(error, "usage: write failed, will retry");
        schedule(FLUSH_DELAY_MS * 10);
      }
    });
    return writing;
  }

  function schedule(delay: number) {
    if (timer) return;
    timer = setTimeout(() => void flush(), delay);
    timer.unref();
  }

  return {
    add(tenantId, charges) {
      for (const [provider, metric, periodKey, amount] of charges) {
        const key = `${tenantId}|${provider}|${metric}|${periodKey}`;
        pending.set(key, (pending.get(key) ?? 0) + amount);
      }
      if (charges.length > 0) schedule(FLUSH_DELAY_MS);
    },
    flush,
  };
}
