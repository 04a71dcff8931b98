import { sql } from "drizzle-orm";
import { queryRows } from "../../db";
import type { TenantContext } from "../context";

export interface ProviderHealth {
  provider: string;
  /** Attempts that reached the provider in the window. */
  calls: number;
  /** Share of those that answered (with results or empty), 0..1. */
  success_rate: number;
  p50_ms: number;
  p95_ms: number;
}

/** Window of recent calls the health figures describe. */
export const HEALTH_WINDOW_HOURS = 24;

/**
 * Recent success rate and latency per provider for this tenant, from its trace spans: the same calls
 * its traces show, on every instance. Skipped attempts and cache hits never reached a provider and
 * are left out.
 */
export async function providerHealth({ ctx }: { ctx: TenantContext }): Promise<Map<string, ProviderHealth>> {
  const since = new Date(ctx.now().getTime() - HEALTH_WINDOW_HOURS * 3_600_000);
  const rows = await ctx.db.withTenant(ctx.tenantId, (tx) =>
    queryRows<{ provider: string; calls: number; answered: number; p50: number; p95: number }>(
      tx,
      sql`select s.provider, count(*)::int as calls,
                 (count(*) filter (where s.outcome in ('ok', 'empty')))::int as answered,
                 percentile_cont(0.5) within group (order by s.duration_ms)::float8 as p50,
                 percentile_cont(0.95) within group (order by s.duration_ms)::float8 as p95
          from trace_spans s join traces t on t.id = s.trace_id
          where t.created_at >= ${since.toISOString()}::timestamptz
            and s.outcome not in ('skipped_budget', 'skipped_breaker', 'cache_hit')
          group by s.provider`,
    ),
  );
  return new Map(
    rows.map((row) => [
      row.provider,
      {
        provider: row.provider,
        calls: row.calls,
        success_rate: row.calls === 0 ? 0 : row.answered / row.calls,
        p50_ms: Math.round(row.p50),
        p95_ms: Math.round(row.p95),
      },
    ]),
  );
}
