import { and, desc, eq, gte, type SQL, sql } from "drizzle-orm";
import { z } from "zod";
import { traces, users } from "@/lib/db/schema";
import { microsToUsd } from "@/lib/pipeline/budgets/units";
import { actingUserId, type TenantContext, type VerbArgs } from "@/lib/pipeline/context";
import { encodeCursor, olderThan } from "@/lib/pipeline/cursor";
import { parseInput } from "@/lib/pipeline/validate";
import { traceUserColumns, visibleTraces } from "./visibility";

export const listTracesInput = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  /** Opaque: the `next_cursor` of the previous page. */
  cursor: z.string().max(200).optional(),
  /** A tool's name (the tool table's traced tools; the OpenAPI document and the dashboard list them). */
  tool: z.string().trim().toLowerCase().min(1).max(40).optional(),
  status: z.enum(["ok", "partial", "error"]).optional(),
  surface: z.enum(["mcp", "rest", "playground", "cli"]).optional(),
  /** Traces with an attempt of this provider. */
  provider: z.string().trim().toLowerCase().min(1).max(40).optional(),
  /** Traces created at or after this instant (ISO 8601). */
  since: z.iso.datetime({ offset: true }).optional(),
  /** Text in the trace's id, token name, error, input or result summary (case-insensitive). */
  q: z.string().trim().min(1).max(200).optional(),
  /** Only the calls of the member behind this call (see actingUserId); "true"/"false" in a query string. */
  mine: z.union([z.boolean(), z.stringbool()]).optional(),
});

/** `q` as a literal ILIKE pattern: % and _ in the text match themselves. */
const containing = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The tenant's traces, newest first, a page at a time. */
export async function listTraces({ ctx, input }: VerbArgs<TenantContext, typeof listTracesInput>) {
  const { limit, cursor, tool, status, surface, provider, since, q, mine } = parseInput(
    listTracesInput,
    input,
  );
  const visible = visibleTraces(ctx);
  const me = actingUserId(ctx.actor);
  if (visible === "none" || (mine && me === null)) return { traces: [], next_cursor: null };
  const filters: Array<SQL | undefined> = [
    visible,
    mine && me ? eq(traces.userId, me) : undefined,
    tool ? eq(traces.tool, tool) : undefined,
    status && eq(traces.status, status),
    surface && eq(traces.surface, surface),
    since ? gte(traces.createdAt, new Date(since)) : undefined,
    provider
      ? sql`exists (select 1 from trace_spans s where s.trace_id = ${traces.id} and s.provider = ${provider})`
      : undefined,
    q
      ? sql`concat_ws(' ', ${traces.id}::text, ${traces.tokenName}, ${traces.error}, ${traces.input}::text,
                    ${traces.resultSummary}::text) ilike ${containing(q)}`
      : undefined,
  ];
  if (cursor) filters.push(olderThan(traces, cursor));
  const rows = await ctx.db.withTenant(ctx.tenantId, (tx) =>
    tx
      .select({
        id: traces.id,
        tool: traces.tool,
        surface: traces.surface,
        token_name: traces.tokenName,
        ...traceUserColumns,
        status: traces.status,
        duration_ms: traces.durationMs,
        cache_hit: traces.cacheHit,
        cost_micros: traces.costMicros,
        summary: traces.resultSummary,
        error: traces.error,
        created_at: traces.createdAt,
      })
      .from(traces)
      .leftJoin(users, eq(users.id, traces.userId))
      .where(and(...filters))
      .orderBy(desc(traces.createdAt), desc(traces.id))
      .limit(limit + 1),
  );
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    traces: page.map(({ cost_micros, ...row }) => ({ ...row, cost_usd: microsToUsd(cost_micros) })),
    next_cursor: rows.length > limit && last ? encodeCursor(last.created_at, last.id) : null,
  };
}
