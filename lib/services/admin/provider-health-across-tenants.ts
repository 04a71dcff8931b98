import { sql } from "drizzle-orm";
import { z } from "zod";
import { queryRows } from "../../db";
import type { SystemContext } from "../context";
import { providerCatalog } from "../providers/catalog";
import { parseInput } from "../validate";
import { assertOperator } from "./operator";

export const providerHealthAcrossTenantsInput = z.strictObject({
  hours: z
    .number()
    .int()
    .min(1)
    .max(24 * 30)
    .default(24),
});

interface HealthRow {
  provider: string;
  attempts: number;
  succeeded: number;
  empty: number;
  errors: number;
  timeouts: number;
  skipped: number;
  tenants: number;
  p50_ms: number | null;
  p95_ms: number | null;
  last_error: string | null;
}

/**
 * How each provider fared for every tenant over the last `hours`, from the trace spans: attempts,
 * successes, errors, timeouts, calls skipped for budget or breaker, and p50/p95 latency of the calls that
 * went out; the most used first. Operator only.
 */
export async function providerHealthAcrossTenants({
  ctx,
  input,
}: {
  ctx: SystemContext;
  input: z.input<typeof providerHealthAcrossTenantsInput>;
}) {
  await assertOperator(ctx);
  const { hours } = parseInput(providerHealthAcrossTenantsInput, input);
  const since = new Date(ctx.now().getTime() - hours * 3_600_000);
  const sent = sql`s.outcome in ('ok', 'empty', 'error', 'timeout')`;
  const rows = await ctx.db.withSystem((tx) =>
    queryRows<HealthRow>(
      tx,
      sql`select s.provider,
            count(*) filter (where ${sent})::int as attempts,
            count(*) filter (where s.outcome = 'ok')::int as succeeded,
            count(*) filter (where s.outcome = 'empty')::int as empty,
            count(*) filter (where s.outcome = 'error')::int as errors,
            count(*) filter (where s.outcome = 'timeout')::int as timeouts,
            count(*) filter (where s.outcome in ('skipped_budget', 'skipped_breaker'))::int as skipped,
            count(distinct s.tenant_id)::int as tenants,
            percentile_cont(0.5) within group (order by s.duration_ms) filter (where ${sent}) as p50_ms,
            percentile_cont(0.95) within group (order by s.duration_ms) filter (where ${sent}) as p95_ms,
            (array_agg(s.error order by t.created_at desc) filter (where s.error is not null))[1] as last_error
          from trace_spans s join traces t on t.id = s.trace_id
          where t.created_at >= ${since.toISOString()}::timestamptz and s.provider <> '*'
          group by s.provider
          order by attempts desc, s.provider`,
    ),
  );
  const catalog = providerCatalog();
  return {
    since: since.toISOString(),
    providers: rows.map((row) => ({
      provider: row.provider,
      name: catalog.get(row.provider)?.displayName ?? row.provider,
      attempts: row.attempts,
      succeeded: row.succeeded,
      empty: row.empty,
      errors: row.errors,
      timeouts: row.timeouts,
      skipped: row.skipped,
      tenants: row.tenants,
      /** Calls that answered (with or without results) out of those that went out. */
      success_rate: row.attempts === 0 ? null : (row.succeeded + row.empty) / row.attempts,
      p50_ms: row.p50_ms === null ? null : Math.round(Number(row.p50_ms)),
      p95_ms: row.p95_ms === null ? null : Math.round(Number(row.p95_ms)),
      last_error: row.last_error,
    })),
  };
}
