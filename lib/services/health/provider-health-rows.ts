import { sql } from "drizzle-orm";
import { type Database, queryRows } from "@/lib/db";
import { SKIPPED_OUTCOMES } from "@/lib/pipeline/providers/skipped";

/** How one provider's attempts in a window went, from the trace spans. */
export interface ProviderHealthRow {
  provider: string;
  /** Attempts that went out to the provider: skipped ones (budget, breaker) and cache hits did not. */
  attempts: number;
  succeeded: number;
  empty: number;
  errors: number;
  timeouts: number;
  /** Attempts skipped for a budget or an open breaker. */
  skipped: number;
  /** Tenants with an attempt in the window. */
  tenants: number;
  /** Attempts that answered (with or without results) out of those that went out; null without any. */
  success_rate: number | null;
  /** Latency of the attempts that went out, rounded to the millisecond; null without any. */
  p50_ms: number | null;
  p95_ms: number | null;
  last_error: string | null;
}

type StoredRow = Omit<ProviderHealthRow, "success_rate">;

/**
 * Which spans to count: one tenant's, read through its row-level security and filtered by it as well,
 * or every tenant's (operator views only).
 */
export type HealthScope = { tenantId: string } | { allTenants: true };

/**
 * Per provider, its attempts since `since` in `scope`, the most used first: the one query behind a
 * workspace's provider health and the operator's view across workspaces.
 */
export async function providerHealthRows(
  db: Database,
  { since, scope }: { since: Date; scope: HealthScope },
): Promise<ProviderHealthRow[]> {
  const sent = sql`s.outcome in ('ok', 'empty', 'error', 'timeout')`;
  const tenantFilter = "tenantId" in scope ? sql`and s.tenant_id = ${scope.tenantId}::uuid` : sql``;
  const query = sql`select s.provider,
        count(*) filter (where ${sent})::int as attempts,
        count(*) filter (where s.outcome = 'ok')::int as succeeded,
        count(*) filter (where s.outcome = 'empty')::int as empty,
        count(*) filter (where s.outcome = 'error')::int as errors,
        count(*) filter (where s.outcome = 'timeout')::int as timeouts,
        count(*) filter (where s.outcome::text in ${SKIPPED_OUTCOMES})::int as skipped,
        count(distinct s.tenant_id)::int as tenants,
        percentile_cont(0.5) within group (order by s.duration_ms) filter (where ${sent}) as p50_ms,
        percentile_cont(0.95) within group (order by s.duration_ms) filter (where ${sent}) as p95_ms,
        (array_agg(s.error order by t.created_at desc) filter (where s.error is not null))[1] as last_error
      from trace_spans s join traces t on t.id = s.trace_id
      where t.created_at >= ${since.toISOString()}::timestamptz and s.provider <> '*' ${tenantFilter}
      group by s.provider
      order by attempts desc, s.provider`;
  const rows =
    "tenantId" in scope
      ? await db.withTenant(scope.tenantId, (tx) => queryRows<StoredRow>(tx, query))
      : await db.withSystem((tx) => queryRows<StoredRow>(tx, query));
  const ms = (value: number | null) => (value === null ? null : Math.round(Number(value)));
  return rows.map((row) => ({
    ...row,
    success_rate: row.attempts === 0 ? null : (row.succeeded + row.empty) / row.attempts,
    p50_ms: ms(row.p50_ms),
    p95_ms: ms(row.p95_ms),
  }));
}
