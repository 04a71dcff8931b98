import { sql } from "drizzle-orm";
import { z } from "zod";
import { queryRows } from "@/lib/db";
import { periodKey } from "@/lib/pipeline/budgets/periods";
import { microsToUsd } from "@/lib/pipeline/budgets/units";
import type { SystemContext, VerbArgs } from "@/lib/pipeline/context";
import { parseInput } from "@/lib/pipeline/validate";
import { assertOperator } from "./operator";

export const listTenantsInput = z.strictObject({
  page: z.number().int().min(1).default(1),
  per_page: z.number().int().min(1).max(100).default(25),
  /** Part of a tenant's name, case-insensitive. */
  query: z.string().trim().max(100).optional(),
});

const ACTIVITY_DAYS = 30;

interface TenantRow {
  id: string;
  name: string;
  created_at: Date | string;
  members: number;
  active_tokens: number;
  keys: number;
  requests_today: string | number;
  requests_month: string | number;
  usd_micros_month: string | number;
  calls_30d: number;
  last_call_at: Date | string | null;
  total: number;
}

/**
 * Every tenant with its members, live tokens and keys, this UTC day's and month's provider requests and
 * spend (the all-providers usage counters budgets charge), and its tool calls of the last 30 days;
 * busiest first, a page at a time. Operator only.
 */
export async function listTenants({ ctx, input }: VerbArgs<SystemContext, typeof listTenantsInput>) {
  await assertOperator(ctx);
  const { page, per_page, query } = parseInput(listTenantsInput, input);
  const now = ctx.now();
  const today = periodKey("day", now);
  const month = periodKey("month", now);
  const since = new Date(now.getTime() - ACTIVITY_DAYS * 86_400_000);
  await ctx.usage.flush(); // this instance's settled usage, before it is read
  const counter = (metric: "requests" | "usd", key: string) =>
    sql`coalesce((select used from usage_counters u where u.tenant_id = t.id and u.provider = '*'
                   and u.metric = ${metric}::budget_metric and u.period_key = ${key}), 0)`;
  const rows = await ctx.db.withSystem((tx) =>
    queryRows<TenantRow>(
      tx,
      sql`select t.id, t.name, t.created_at,
            (select count(*) from memberships m where m.tenant_id = t.id)::int as members,
            (select count(*) from api_tokens a where a.tenant_id = t.id and a.revoked_at is null
               and (a.expires_at is null or a.expires_at > ${now.toISOString()}::timestamptz))::int as active_tokens,
            (select count(*) from provider_keys k where k.tenant_id = t.id)::int as keys,
            ${counter("requests", today)} as requests_today,
            ${counter("requests", month)} as requests_month,
            ${counter("usd", month)} as usd_micros_month,
            (select count(*) from traces c where c.tenant_id = t.id
               and c.created_at >= ${since.toISOString()}::timestamptz)::int as calls_30d,
            (select max(c.created_at) from traces c where c.tenant_id = t.id) as last_call_at,
            count(*) over ()::int as total
          from tenants t
          where ${query ? sql`t.name ilike ${`%${query.replace(/[\\%_]/g, "\\$&")}%`}` : sql`true`}
          order by requests_month desc, usd_micros_month desc, t.created_at desc, t.id
          limit ${per_page} offset ${(page - 1) * per_page}`,
    ),
  );
  return {
    tenants: rows.map((row) => ({
      id: row.id,
      name: row.name,
      created_at: new Date(row.created_at).toISOString(),
      members: row.members,
      active_tokens: row.active_tokens,
      keys: row.keys,
      requests_today: Number(row.requests_today),
      requests_month: Number(row.requests_month),
      usd_month: microsToUsd(Number(row.usd_micros_month)),
      calls_30d: row.calls_30d,
      last_call_at: row.last_call_at === null ? null : new Date(row.last_call_at).toISOString(),
    })),
    total: rows[0]?.total ?? 0,
    page,
    per_page,
  };
}
