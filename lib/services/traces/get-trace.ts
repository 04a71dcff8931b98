import { and, asc, eq } from "drizzle-orm";
import { z } from "zod";
import { traceSpans, traces, users } from "@/lib/db/schema";
import { microsToUsd } from "@/lib/pipeline/budgets/units";
import type { TenantContext } from "@/lib/pipeline/context";
import { ServiceError } from "@/lib/pipeline/errors";
import { parseInput } from "@/lib/pipeline/validate";
import { traceUserColumns, visibleTraces } from "./visibility";

export const getTraceInput = z.strictObject({ id: z.uuid() });

/** One trace with its spans; another tenant's (or an invisible) trace is not found. */
export async function getTrace({ ctx, input }: { ctx: TenantContext; input: z.input<typeof getTraceInput> }) {
  const { id } = parseInput(getTraceInput, input);
  const visible = visibleTraces(ctx);
  const found =
    visible === "none"
      ? undefined
      : await ctx.db.withTenant(ctx.tenantId, async (tx) => {
          const [row] = await tx
            .select({ trace: traces, user_name: traceUserColumns.user_name })
            .from(traces)
            .leftJoin(users, eq(users.id, traces.userId))
            .where(and(eq(traces.id, id), visible));
          if (!row) return undefined;
          const { trace, user_name } = row;
          const spans = await tx
            .select()
            .from(traceSpans)
            .where(eq(traceSpans.traceId, id))
            .orderBy(asc(traceSpans.startOffsetMs));
          return { trace, user_name, spans };
        });
  if (!found) throw new ServiceError("not_found", "trace not found");
  const { trace, user_name, spans } = found;
  return {
    id: trace.id,
    tool: trace.tool,
    surface: trace.surface,
    token_name: trace.tokenName,
    user_id: trace.userId,
    user_name,
    status: trace.status,
    duration_ms: trace.durationMs,
    cache_hit: trace.cacheHit,
    input: trace.input,
    summary: trace.resultSummary,
    cost_usd: microsToUsd(trace.costMicros),
    error: trace.error,
    created_at: trace.createdAt,
    spans: spans.map((s) => ({
      provider: s.provider,
      kind: s.kind,
      outcome: s.outcome,
      status: s.httpStatus,
      start_offset_ms: s.startOffsetMs,
      duration_ms: s.durationMs,
      bytes: s.bytes,
      cost_usd: microsToUsd(s.costMicros),
      error: s.error,
    })),
  };
}
