import { and, asc, eq } from "drizzle-orm";
import { z } from "zod";
import { traceSpans, traces } from "@/lib/db/schema";
import { microsToUsd } from "@/lib/services/budgets/units";
import type { TenantContext } from "@/lib/services/context";
import { ServiceError } from "@/lib/services/errors";
import { parseInput } from "@/lib/services/validate";
import { visibleTraces } from "./visibility";

export const getTraceInput = z.strictObject({ id: z.uuid() });

/** One trace with its spans; another tenant's (or an invisible) trace is not found. */
export async function getTrace({ ctx, input }: { ctx: TenantContext; input: z.input<typeof getTraceInput> }) {
  const { id } = parseInput(getTraceInput, input);
  const visible = visibleTraces(ctx);
  const found =
    visible === "none"
      ? undefined
      : await ctx.db.withTenant(ctx.tenantId, async (tx) => {
          const [trace] = await tx
            .select()
            .from(traces)
            .where(and(eq(traces.id, id), visible));
          if (!trace) return undefined;
          const spans = await tx
            .select()
            .from(traceSpans)
            .where(eq(traceSpans.traceId, id))
            .orderBy(asc(traceSpans.startOffsetMs));
          return { trace, spans };
        });
  if (!found) throw new ServiceError("not_found", "trace not found");
  const { trace, spans } = found;
  return {
    id: trace.id,
    tool: trace.tool,
    surface: trace.surface,
    token_name: trace.tokenName,
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
