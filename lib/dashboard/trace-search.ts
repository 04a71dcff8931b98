import { z } from "zod";
import type { TenantContext } from "@/lib/pipeline/context";
import { listTraces, listTracesInput } from "@/lib/services/traces/list-traces";
import { TRACED_TOOL_NAMES } from "@/lib/tools/table";

const RANGES = { "1h": 3_600_000, "24h": 86_400_000, "7d": 7 * 86_400_000, "30d": 30 * 86_400_000 } as const;
export type TraceRange = keyof typeof RANGES;

/** A "Time" filter of the list pages (traces, audit): the range, or none for a value it does not know. */
export const timeRange = z
  .enum(Object.keys(RANGES) as [TraceRange, ...TraceRange[]])
  .optional()
  .catch(undefined);

/** The instant a time range starts at, as the verbs' `since`. */
export const rangeStart = (ctx: TenantContext, range: TraceRange | undefined) =>
  range ? new Date(ctx.now().getTime() - RANGES[range]).toISOString() : undefined;

/** The traces page's filters, from its query string; a value the verb would refuse is ignored. */
export const traceFilters = z.object({
  // The table's traced tools: the form's "any" (or a stale name) is no filter.
  tool: z.enum(TRACED_TOOL_NAMES).optional().catch(undefined),
  status: listTracesInput.shape.status.catch(undefined),
  surface: listTracesInput.shape.surface.catch(undefined),
  provider: listTracesInput.shape.provider.catch(undefined),
  range: timeRange,
  q: listTracesInput.shape.q.catch(undefined),
  mine: listTracesInput.shape.mine.catch(undefined),
  cursor: listTracesInput.shape.cursor.catch(undefined),
});
export type TraceFilters = z.output<typeof traceFilters>;

const PAGE = 20;

/** One page of traces matching the filters, newest first (the time range becomes the verb's `since`). */
export function searchTraces(ctx: TenantContext, { range, ...filters }: TraceFilters) {
  const since = rangeStart(ctx, range);
  return listTraces({ ctx, input: { ...filters, since, limit: PAGE } });
}
