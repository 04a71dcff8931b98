/**
 * What a tenant has stored, read through the tenant's own RLS scope: usage counters (lifetime requests
 * per provider), reservations by status, traces and their spans, and the rows a hostile request could
 * have written (tokens, budgets, keys, audit entries). Tests compare snapshots and count against it.
 */
import { and, count, eq, inArray } from "drizzle-orm";
import type { Database } from "@/lib/db";
import {
  apiTokens,
  auditLog,
  budgets,
  providerKeys,
  reservations,
  traceSpans,
  traces,
  usageCounters,
} from "@/lib/db/schema";

export interface LedgerSnapshot {
  /** Lifetime `requests` counter per provider (`*` included). */
  requests: Record<string, number>;
  reservations: Record<"reserved" | "settled" | "released", number>;
  traces: number;
  rows: { tokens: number; budgets: number; keys: number; audit: number };
}

export async function ledger(db: Database, tenantId: string): Promise<LedgerSnapshot> {
  return db.withTenant(tenantId, async (tx) => {
    const counters = await tx
      .select({ provider: usageCounters.provider, used: usageCounters.used })
      .from(usageCounters)
      .where(and(eq(usageCounters.metric, "requests"), eq(usageCounters.periodKey, "lifetime")));
    const byStatus = await tx
      .select({ status: reservations.status, n: count() })
      .from(reservations)
      .groupBy(reservations.status);
    const tally = async (
      table: typeof traces | typeof apiTokens | typeof budgets | typeof providerKeys | typeof auditLog,
    ) => (await tx.select({ n: count() }).from(table))[0]?.n ?? 0;
    const status = (name: string) => byStatus.find((row) => row.status === name)?.n ?? 0;
    return {
      requests: Object.fromEntries(counters.map((row) => [row.provider, row.used])),
      reservations: {
        reserved: status("reserved"),
        settled: status("settled"),
        released: status("released"),
      },
      traces: await tally(traces),
      rows: {
        tokens: await tally(apiTokens),
        budgets: await tally(budgets),
        keys: await tally(providerKeys),
        audit: await tally(auditLog),
      },
    };
  });
}

/** Which of `ids` have a trace row. */
export async function storedTraceIds(
  db: Database,
  tenantId: string,
  ids: readonly string[],
): Promise<Set<string>> {
  const found = new Set<string>();
  for (let i = 0; i < ids.length; i += 1_000) {
    const chunk = ids.slice(i, i + 1_000);
    const rows = await db.withTenant(tenantId, (tx) =>
      tx.select({ id: traces.id }).from(traces).where(inArray(traces.id, chunk)),
    );
    for (const row of rows) found.add(row.id);
  }
  return found;
}

/** Spans per provider and outcome, e.g. `{ brave: { ok: 12, timeout: 1 } }`. */
export async function spanOutcomes(
  db: Database,
  tenantId: string,
): Promise<Record<string, Record<string, number>>> {
  const rows = await db.withTenant(tenantId, (tx) =>
    tx
      .select({ provider: traceSpans.provider, outcome: traceSpans.outcome, n: count() })
      .from(traceSpans)
      .groupBy(traceSpans.provider, traceSpans.outcome),
  );
  const outcomes: Record<string, Record<string, number>> = {};
  for (const row of rows) outcomes[row.provider] = { ...outcomes[row.provider], [row.outcome]: row.n };
  return outcomes;
}

/** The stored spans of one trace. */
export async function traceSpansOf(db: Database, tenantId: string, traceId: string) {
  return db.withTenant(tenantId, (tx) => tx.select().from(traceSpans).where(eq(traceSpans.traceId, traceId)));
}
