import { eq } from "drizzle-orm";
import { z } from "zod";
import { defaultSearchMode, tenants } from "@/lib/db/schema";
import { writeAudit } from "@/lib/pipeline/audit";
import { assertScope, type TenantContext, type VerbArgs } from "@/lib/pipeline/context";
import { ServiceError } from "@/lib/pipeline/errors";
import { maxTenantRateLimit } from "@/lib/pipeline/rate-limit/limits";
import { parseInput } from "@/lib/pipeline/validate";
import { forgetSearchSettings } from "@/lib/services/search/search-settings";

export const updateTenantInput = z
  .strictObject({
    name: z.string().trim().min(1).max(100).optional(),
    /** Requests per minute per token, at most the operator's ceiling; null returns to the operator default. */
    rateLimitRpm: z.number().int().min(1).max(100_000).nullable().optional(),
    traceRetentionDays: z.number().int().min(1).max(3650).optional(),
    /** web_search writes grounded snippets unless a call sets grounded_snippets itself. */
    groundedSnippets: z.boolean().optional(),
    /** The mode of a web_search that names neither `mode` nor `providers`. */
    defaultSearchMode: z.enum(defaultSearchMode.enumValues).optional(),
  })
  .refine((v) => Object.values(v).some((value) => value !== undefined), { message: "nothing to change" });

export async function updateTenant({ ctx, input }: VerbArgs<TenantContext, typeof updateTenantInput>) {
  assertScope(ctx, "admin");
  const changes = parseInput(updateTenantInput, input);
  const ceiling = maxTenantRateLimit(ctx.env);
  if (changes.rateLimitRpm && changes.rateLimitRpm > ceiling) {
    const message = `at most ${ceiling} requests per minute (the operator's ceiling, SEARCHMUX_RATE_LIMIT_MAX_RPM)`;
    throw new ServiceError("invalid_input", `rateLimitRpm: ${message}`, [{ path: "rateLimitRpm", message }]);
  }
  const updated = await ctx.db.withTenant(ctx.tenantId, async (tx) => {
    const [row] = await tx.update(tenants).set(changes).where(eq(tenants.id, ctx.tenantId)).returning({
      id: tenants.id,
      name: tenants.name,
      rateLimitRpm: tenants.rateLimitRpm,
      traceRetentionDays: tenants.traceRetentionDays,
      groundedSnippets: tenants.groundedSnippets,
      defaultSearchMode: tenants.defaultSearchMode,
    });
    if (!row) throw new Error("tenant disappeared during update");
    await writeAudit(tx, {
      tenantId: ctx.tenantId,
      actor: ctx.actor,
      action: "tenant.update",
      targetType: "tenant",
      targetId: row.id,
      details: changes,
    });
    return row;
  });
  forgetSearchSettings(ctx.tenantId);
  return updated;
}
