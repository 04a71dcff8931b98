import { z } from "zod";
import type { TenantContext } from "@/lib/services/context";
import { listTraces, listTracesInput } from "@/lib/services/traces/list-traces";

type TraceRow = Awaited<ReturnType<typeof listTraces>>["traces"][number];

const RANGES = { "1h": 3_600_000, "24h": 86_400_000, "7d": 7 * 86_400_000, "30d": 30 * 86_400_000 } as const;
export type TraceRange = keyof typeof RANGES;

/**
 * The traces page's filters, from its query string. Tool and status are the verb's own filters;
 * surface, time range and text are applied here while paging (listTraces has no such filters yet).
 */
export const traceFilters = z.object({
  tool: listTracesInput.shape.tool.catch(undefined),
  status: listTracesInput.shape.status.catch(undefined),
  surface: z.enum(["mcp", "rest", "playground", "cli"]).optional().catch(undefined),
  range: z
    .enum(Object.keys(RANGES) as [TraceRange, ...TraceRange[]])
    .optional()
    .catch(undefined),
  q: z.string().trim().max(200).optional().catch(undefined),
  cursor: z.string().max(200).optional().catch(undefined),
});
export type TraceFilters = z.output<typeof traceFilters>;

const PAGE = 20;
/** How many traces one page may look through for matches before offering to continue. */
const MAX_SCANNED = 500;

function matchesText(row: TraceRow, text: string): boolean {
  const haystack = [row.id, row.tool, row.token_name, row.error, JSON.stringify(row.summary)]
    .join(" ")
    .toLowerCase();
  return haystack.includes(text.toLowerCase());
}

/**
 * One page of traces matching the filters, newest first: whole pages of the verb are read until at
 * least a page of matches is found, the time range is left behind, or MAX_SCANNED traces were read.
 */
export async function searchTraces(ctx: TenantContext, filters: TraceFilters) {
  const since = filters.range ? ctx.now().getTime() - RANGES[filters.range] : undefined;
  const keep = (row: TraceRow) =>
    (!filters.surface || row.surface === filters.surface) && (!filters.q || matchesText(row, filters.q));
  const matches: TraceRow[] = [];
  let cursor = filters.cursor;
  let scanned = 0;
  while (matches.length < PAGE && scanned < MAX_SCANNED) {
    const page = await listTraces({
      ctx,
      input: { limit: PAGE, cursor, tool: filters.tool, status: filters.status },
    });
    scanned += page.traces.length;
    const inRange =
      since === undefined ? page.traces : page.traces.filter((row) => row.created_at.getTime() >= since);
    matches.push(...inRange.filter(keep));
    const leftRange = inRange.length < page.traces.length;
    cursor = leftRange ? undefined : (page.next_cursor ?? undefined);
    if (!cursor) break;
  }
  return { traces: matches, next_cursor: cursor ?? null, scanned };
}
