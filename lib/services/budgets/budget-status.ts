import type { TenantContext } from "@/lib/pipeline/context";
import { budgetReport } from "./budget-report";
import { searchContributions } from "./search-contributions";

type Report = Awaited<ReturnType<typeof budgetReport>>;
type BudgetRecord = Report["budgets"][number];
/** What a budget leaves: enough to plan calls, nothing to manage it by. */
type BudgetLeft = Omit<BudgetRecord, "id" | "soft">;

export type BudgetStatus = Omit<Report, "budgets"> & {
  /** With the admin scope each budget also carries its record: `id` and `soft`. */
  budgets: Array<BudgetLeft & Partial<Pick<BudgetRecord, "id" | "soft">>>;
  search_contributions: Awaited<ReturnType<typeof searchContributions>>;
};

const leftOf = ({ id: _id, soft: _soft, ...left }: BudgetRecord): BudgetLeft => left;

/**
 * What is left, for every token: each budget's limit, use, remainder and reset (a refused call names
 * them anyway), the operator quotas, per-provider usage with free tiers and what each search provider adds
 * to the fused results (search-contributions.ts). What manages budgets — a
 * budget's id and soft limit, the alert history — needs the admin scope, as GET /api/v1/budgets does.
 */
export async function budgetStatus({ ctx }: { ctx: TenantContext }): Promise<BudgetStatus> {
  const [report, contributions] = await Promise.all([budgetReport(ctx), searchContributions({ ctx })]);
  const status = { ...report, search_contributions: contributions };
  if (ctx.scopes.includes("admin")) return status;
  return { ...status, budgets: report.budgets.map(leftOf), alerts: [] };
}
