import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { z } from "zod";
import type { Tx } from "@/lib/db";
import { budgets, providerKeys } from "@/lib/db/schema";
import { writeAudit } from "@/lib/pipeline/audit";
import { assertScope, type TenantContext } from "@/lib/pipeline/context";
import { ServiceError } from "@/lib/pipeline/errors";
import { seal } from "@/lib/pipeline/keys/key-encryption";
import { type CatalogEntry, keyedProvider } from "@/lib/pipeline/providers/catalog";
import { forgetTenantKeys } from "@/lib/pipeline/providers/resolve-keys";
import { parseInput } from "@/lib/pipeline/validate";

export const setKeyInput = z.strictObject({
  provider: z.string().trim().toLowerCase().min(1).max(40),
  key: z.string().trim().min(8).max(4096),
});

/**
 * With a tenant's first key for a provider, a hard budget equal to the provider's free tier is created
 * (unless one exists), so a new key never spends beyond the free tier until an admin raises it.
 */
async function prefillFreeTierBudget(
  ctx: TenantContext,
  tx: Tx,
  provider: string,
  freeTier: NonNullable<CatalogEntry["freeTier"]>,
) {
  const [budget] = await tx
    .insert(budgets)
    .values({
      tenantId: ctx.tenantId,
      provider,
      metric: "requests",
      period: freeTier.period,
      hardLimit: freeTier.requests,
    })
    .onConflictDoNothing()
    .returning({ id: budgets.id });
  if (!budget) return;
  await writeAudit(tx, {
    tenantId: ctx.tenantId,
    actor: ctx.actor,
    action: "budget.default",
    targetType: "budget",
    targetId: budget.id,
    details: {
      provider,
      metric: "requests",
      period: freeTier.period,
      limit: freeTier.requests,
      reason: "free tier",
    },
  });
}

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
    if (!existing && entry.freeTier) await prefillFreeTierBudget(ctx, tx, provider, entry.freeTier);
    return { provider, last4, status: "unknown" as const };
  });
  forgetTenantKeys(ctx.tenantId);
  return stored;
}
