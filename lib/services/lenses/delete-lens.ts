import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { lenses } from "@/lib/db/schema";
import { writeAudit } from "@/lib/pipeline/audit";
import { assertScope, type TenantContext, type VerbArgs } from "@/lib/pipeline/context";
import { ServiceError } from "@/lib/pipeline/errors";
import { parseInput } from "@/lib/pipeline/validate";
import { BUILT_IN_LENSES } from "./built-in-lenses";
import { lensName } from "./lens";

export const deleteLensInput = z.strictObject({ name: lensName });

/** Deletes the tenant's lens; a built-in lens it replaced comes back. Built-in lenses cannot be deleted. */
export async function deleteLens({ ctx, input }: VerbArgs<TenantContext, typeof deleteLensInput>) {
  assertScope(ctx, "admin");
  const { name } = parseInput(deleteLensInput, input);
  return ctx.db.withTenant(ctx.tenantId, async (tx) => {
    const [deleted] = await tx
      .delete(lenses)
      .where(and(eq(lenses.tenantId, ctx.tenantId), eq(lenses.name, name)))
      .returning({ id: lenses.id, domains: lenses.domains });
    if (!deleted) {
      const builtIn = BUILT_IN_LENSES.some((lens) => lens.name === name);
      throw new ServiceError(
        "not_found",
        builtIn ? `'${name}' is a built-in lens and cannot be deleted` : `no lens named '${name}'`,
      );
    }
    await writeAudit(tx, {
      tenantId: ctx.tenantId,
      actor: ctx.actor,
      action: "lens.delete",
      targetType: "lens",
      targetId: deleted.id,
      details: { name, domains: deleted.domains.length },
    });
    return { name, deleted: true };
  });
}
