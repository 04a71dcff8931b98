import { and, eq } from "drizzle-orm";
import { type LensDefaults, lenses } from "@/lib/db/schema";
import { writeAudit } from "@/lib/pipeline/audit";
import { assertScope, type TenantContext, type VerbArgs } from "@/lib/pipeline/context";
import { parseInput } from "@/lib/pipeline/validate";
import { type Lens, lensDefinition, lensFromRow } from "./lens";

export const setLensInput = lensDefinition;

/** Creates or replaces the tenant's lens of that name (a built-in name makes it the tenant's own). */
export async function setLens({ ctx, input }: VerbArgs<TenantContext, typeof setLensInput>): Promise<Lens> {
  assertScope(ctx, "admin");
  const { name, description, domains, time_range, region, safesearch } = parseInput(setLensInput, input);
  const defaults: LensDefaults = {
    ...(time_range && { time_range }),
    ...(region && { region }),
    ...(safesearch && { safesearch }),
  };
  return ctx.db.withTenant(ctx.tenantId, async (tx) => {
    const [existing] = await tx
      .select({ id: lenses.id })
      .from(lenses)
      .where(and(eq(lenses.tenantId, ctx.tenantId), eq(lenses.name, name)))
      .for("update");
    const values = { description, domains, defaults, updatedAt: ctx.now() };
    const [row] = existing
      ? await tx.update(lenses).set(values).where(eq(lenses.id, existing.id)).returning()
      : await tx
          .insert(lenses)
          .values({ tenantId: ctx.tenantId, name, ...values })
          .returning();
    if (!row) throw new Error("lens upsert returned no row");
    await writeAudit(tx, {
      tenantId: ctx.tenantId,
      actor: ctx.actor,
      action: existing ? "lens.replace" : "lens.create",
      targetType: "lens",
      targetId: row.id,
      details: { name, domains: domains.length, defaults },
    });
    return lensFromRow(row);
  });
}
