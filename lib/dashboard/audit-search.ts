import { z } from "zod";
import type { TenantContext } from "@/lib/pipeline/context";
import { listAudit, listAuditInput } from "@/lib/services/audit/list-audit";
import { rangeStart, timeRange } from "./trace-search";

/** The audit page's filters, from its query string; a value the verb would refuse is ignored. */
export const auditFilters = z.object({
  action: listAuditInput.shape.action.catch(undefined),
  range: timeRange,
  cursor: listAuditInput.shape.cursor.catch(undefined),
});
export type AuditFilters = z.output<typeof auditFilters>;

const PAGE = 25;

/** One page of the audit log matching the filters, newest first. */
export function searchAudit(ctx: TenantContext, { range, ...filters }: AuditFilters) {
  return listAudit({ ctx, input: { ...filters, since: rangeStart(ctx, range), limit: PAGE } });
}
