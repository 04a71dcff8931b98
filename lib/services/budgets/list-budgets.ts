import { assertScope, type TenantContext } from "@/lib/pipeline/context";
import { budgetReport } from "./budget-report";

/** Every budget's record (id, limits, use, reset), the recent alerts and the rest of budgetStatus. */
export async function listBudgets({ ctx }: { ctx: TenantContext }) {
  assertScope(ctx, "admin");
  return budgetReport(ctx);
}
