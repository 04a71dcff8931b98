import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { budgets } from "@/lib/db/schema";
import { writeAudit } from "@/lib/pipeline/audit";
import { assertScope, type TenantContext, type VerbArgs } from "@/lib/pipeline/context";
import { ServiceError } from "@/lib/pipeline/errors";
import { parseInput } from "@/lib/pipeline/validate";

export const deleteBudgetInput = z.strictObject({ id: z.uuid() });

export async function deleteBudget({ ctx, input }: VerbArgs<TenantContext, typeof deleteBudgetInput>) {
  assertScope(ctx, "admin");
  const { id } = parseInput(deleteBudgetInput, input);
  return ctx.db.withTenant(ctx.tenantId, async (tx) => {
    const [deleted] = await tx
      .delete(budgets)
      .where(and(eq(budgets.tenantId, ctx.tenantId), eq(budgets.id, id)))
      .returning({
        id: budgets.id,
        provider: budgets.provider,
        metric: budgets.metric,
        period: budgets.period,
      });
    if (!deleted) throw new ServiceError("not_found", "budget not found");
    await writeAudit(tx, {
      tenantId: ctx.tenantId,
      actor: ctx.actor,
      action: "budget.delete",
      targetType: "budget",
      targetId: id,
      details: { provider: deleted.provider, metric: deleted.metric, period: deleted.period },
    });
    return { id, deleted: true };
  });
}
