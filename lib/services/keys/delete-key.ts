import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { providerKeys } from "@/lib/db/schema";
import { writeAudit } from "@/lib/pipeline/audit";
import { assertScope, type TenantContext, type VerbArgs } from "@/lib/pipeline/context";
import { ServiceError } from "@/lib/pipeline/errors";
import { forgetTenantKeys } from "@/lib/pipeline/providers/resolve-keys";
import { parseInput } from "@/lib/pipeline/validate";

export const deleteKeyInput = z.strictObject({ provider: z.string().trim().toLowerCase().min(1).max(40) });

export async function deleteKey({ ctx, input }: VerbArgs<TenantContext, typeof deleteKeyInput>) {
  assertScope(ctx, "admin");
  const { provider } = parseInput(deleteKeyInput, input);
  const result = await ctx.db.withTenant(ctx.tenantId, async (tx) => {
    const [deleted] = await tx
      .delete(providerKeys)
      .where(and(eq(providerKeys.tenantId, ctx.tenantId), eq(providerKeys.provider, provider)))
      .returning({ id: providerKeys.id, last4: providerKeys.last4 });
    if (!deleted) throw new ServiceError("not_found", `no key stored for '${provider}'`);
    await writeAudit(tx, {
      tenantId: ctx.tenantId,
      actor: ctx.actor,
      action: "key.delete",
      targetType: "provider_key",
      targetId: deleted.id,
      details: { provider, last4: deleted.last4 },
    });
    return { provider, deleted: true };
  });
  forgetTenantKeys(ctx.tenantId);
  return result;
}
