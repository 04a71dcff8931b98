import { and, gte, like, sql } from "drizzle-orm";
import { z } from "zod";
import { queryRows } from "@/lib/db";
import { usageCounters } from "@/lib/db/schema";
import { OPERATOR_SCOPE } from "@/lib/pipeline/budgets/operator-quota";
import { periodKey } from "@/lib/pipeline/budgets/periods";
import { microsToUsd } from "@/lib/pipeline/budgets/units";
import type { TenantContext } from "@/lib/pipeline/context";
import { parseInput } from "@/lib/pipeline/validate";

export const usageHistoryInput = z.strictObject({
  days: z.number().int().min(1).max(90).default(30),
});

export interface UsageDay {
  /** UTC date, YYYY-MM-DD. */
  date: string;
  /** Provider calls charged that day (cache hits are not provider calls). */
  requests: number;
  usd: number;
  /** Tool calls traced that day, and how many of them the cache answered. */
  calls: number;
  cache_hits: number;
  /** That day's tool calls by tool (web_search, fetch, …); tools without calls are left out. */
  tools: Record<string, number>;
  providers: Record<string, { requests: number; usd: number }>;
}

const dayOf = (at: Date) => at.toISOString().slice(0, 10);

/**
 * Usage per UTC day for the last `days` days, oldest first, with no gaps. Provider figures come from
 * the day counters that budget admission charges, so charts and budgets can never disagree; call and
 * cache-hit counts come from the traces.
 */
export async function usageHistory({ ctx, input }: { ctx: TenantContext; input: unknown }) {
  const { days } = parseInput(usageHistoryInput, input);
  await ctx.usage.flush(); // this instance's settled usage, before it is read
  const now = ctx.now();
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (days - 1)));
  const { counters, calls } = await ctx.db.withTenant(ctx.tenantId, async (tx) => ({
    counters: await tx
      .select()
      .from(usageCounters)
      .where(
        and(like(usageCounters.periodKey, "day:%"), gte(usageCounters.periodKey, periodKey("day", first))),
      ),
    calls: await queryRows<{ day: string; tool: string; calls: number; cache_hits: number }>(
      tx,
      sql`select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') as day, tool,
                 count(*)::int as calls, (count(*) filter (where cache_hit))::int as cache_hits
          from traces where created_at >= ${first.toISOString()}::timestamptz group by 1, 2`,
    ),
  }));

  const history: UsageDay[] = Array.from({ length: days }, (_, i) => ({
    date: dayOf(new Date(first.getTime() + i * 86_400_000)),
    requests: 0,
    usd: 0,
    calls: 0,
    cache_hits: 0,
    tools: {},
    providers: {},
  }));
  const byDate = new Map(history.map((day) => [day.date, day]));
  for (const counter of counters) {
    const day = byDate.get(counter.periodKey.slice("day:".length));
    // `*` and the operator quotas' counters repeat the providers' own.
    if (!day || counter.provider === "*" || counter.provider === OPERATOR_SCOPE) continue;
    const figures = day.providers[counter.provider] ?? { requests: 0, usd: 0 };
    day.providers[counter.provider] = figures;
    if (counter.metric === "requests") {
      figures.requests += counter.used;
      day.requests += counter.used;
    } else {
      figures.usd += microsToUsd(counter.used);
      day.usd += microsToUsd(counter.used);
    }
  }
  for (const row of calls) {
    const day = byDate.get(row.day);
    if (!day) continue;
    day.calls += row.calls;
    day.cache_hits += row.cache_hits;
    day.tools[row.tool] = row.calls;
  }
  return { days: history };
}
