import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { providerKeys } from "@/lib/db/schema";
import { writeAudit } from "@/lib/pipeline/audit";
import { assertScope, type TenantContext } from "@/lib/pipeline/context";
import { ServiceError } from "@/lib/pipeline/errors";
import { seal } from "@/lib/pipeline/keys/key-encryption";
import { keyedProvider } from "@/lib/pipeline/providers/catalog";
import { forgetTenantKeys } from "@/lib/pipeline/providers/resolve-keys";
import { parseInput } from "@/lib/pipeline/validate";
import { insertDefaultBudget } from "@/lib/services/budgets/default-budget";

export const setKeyInput = z.strictObject({
  provider: z.string().trim().toLowerCase().min(1).max(40),
  key: z.string().trim().min(8).max(4096),
});

/** Stores (or replaces) the tenant's key for a provider, encrypted; returns only its last 4. */
export async function setKey({ ctx, input }: { ctx: TenantContext; input: z.input<typeof setKeyInput> }) {
  assertScope(ctx, "admin");
  const { provider, key } = parseInput(setKeyInput, input);
  const entry = keyedProvider(provider);
  if (!entry) throw new ServiceError("invalid_input", `'${provider}' is not a provider that takes a key`);
  const last4 = key.slice(-4);

  const stored = await ctx.db.withTenant(ctx.tenantId, async (tx) => {
    const [existing] = await tx
      .select({ id: providerKeys.id })
      .from(providerKeys)
      .where(and(eq(providerKeys.tenantId, ctx.tenantId), eq(providerKeys.provider, provider)))
      .for("update");
    const id = existing?.id ?? randomUUID();
    const sealed = seal(ctx.keyring, key, { tenantId: ctx.tenantId, provider, rowId: id });
    const values = { ...sealed, last4, status: "unknown" as const, checkedAt: null, updatedAt: ctx.now() };
    if (existing) await tx.update(providerKeys).set(values).where(eq(providerKeys.id, id));
    else await tx.insert(providerKeys).values({ id, tenantId: ctx.tenantId, provider, ...values });
    await writeAudit(tx, {
      tenantId: ctx.tenantId,
      actor: ctx.actor,
      action: existing ? "key.replace" : "key.create",
      targetType: "provider_key",
      targetId: id,
      details: { provider, last4 },
    });
    // With a first key, a hard budget of the provider's free tier (unless one exists): a new key never spends
    // beyond the free tier until an admin raises it.
    if (!existing && entry.freeTier) {
      await insertDefaultBudget(tx, ctx, {
        provider,
        metric: "requests",
        period: entry.freeTier.period,
        limit: entry.freeTier.requests,
        reason: "free tier",
      });
    }
    return { provider, last4, status: "unknown" as const };
  });
  forgetTenantKeys(ctx.tenantId);
  return stored;
}
