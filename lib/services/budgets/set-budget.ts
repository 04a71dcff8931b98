import { z } from "zod";
import { budgets } from "@/lib/db/schema";
import { writeAudit } from "@/lib/pipeline/audit";
import { usdToMicros } from "@/lib/pipeline/budgets/units";
import { assertScope, type TenantContext, type VerbArgs } from "@/lib/pipeline/context";
import { ServiceError } from "@/lib/pipeline/errors";
import { providerCatalog } from "@/lib/pipeline/providers/catalog";
import { parseInput } from "@/lib/pipeline/validate";

export const setBudgetInput = z
  .strictObject({
    /** A provider id, or `*` for all providers together. */
    provider: z.string().trim().toLowerCase().min(1).max(40),
    metric: z.enum(["requests", "usd"]),
    period: z.enum(["day", "month", "lifetime"]),
    /** Requests, or dollars for the usd metric. */
    limit: z.number().nonnegative().max(1e9),
    soft: z.number().nonnegative().max(1e9).optional(),
    /** Day of month a monthly period starts on (1–31, clamped to short months). */
    anchorDay: z.number().int().min(1).max(31).optional(),
  })
  .refine((b) => b.soft === undefined || b.soft <= b.limit, {
    message: "soft limit must not exceed the limit",
    path: ["soft"],
  })
  .refine(
    (b) =>
      b.metric === "usd" || (Number.isInteger(b.limit) && (b.soft === undefined || Number.isInteger(b.soft))),
    {
      message: "request limits are whole numbers",
      path: ["limit"],
    },
  )
  .refine((b) => b.anchorDay === undefined || b.period === "month", {
    message: "anchorDay is for monthly budgets",
    path: ["anchorDay"],
  });

/** Creates or replaces the budget for (provider, metric, period). */
export async function setBudget({ ctx, input }: VerbArgs<TenantContext, typeof setBudgetInput>) {
  assertScope(ctx, "admin");
  const b = parseInput(setBudgetInput, input);
  if (b.provider !== "*" && !providerCatalog().has(b.provider)) {
    throw new ServiceError("invalid_input", `unknown provider '${b.provider}'`);
  }
  const stored = (value: number) => (b.metric === "usd" ? usdToMicros(value) : value);
  const values = {
    hardLimit: stored(b.limit),
    softLimit: b.soft === undefined ? null : stored(b.soft),
    anchorDay: b.anchorDay ?? 1,
    updatedAt: ctx.now(),
  };
  return ctx.db.withTenant(ctx.tenantId, async (tx) => {
    const [row] = await tx
      .insert(budgets)
      .values({ tenantId: ctx.tenantId, provider: b.provider, metric: b.metric, period: b.period, ...values })
      .onConflictDoUpdate({
        target: [budgets.tenantId, budgets.provider, budgets.metric, budgets.period],
        set: values,
      })
      .returning({ id: budgets.id });
    if (!row) throw new Error("budget upsert returned no row");
    await writeAudit(tx, {
      tenantId: ctx.tenantId,
      actor: ctx.actor,
      action: "budget.set",
      targetType: "budget",
      targetId: row.id,
      details: {
        provider: b.provider,
        metric: b.metric,
        period: b.period,
        limit: b.limit,
        soft: b.soft ?? null,
      },
    });
    return {
      id: row.id,
      provider: b.provider,
      metric: b.metric,
      period: b.period,
      limit: b.limit,
      soft: b.soft ?? null,
    };
  });
}
