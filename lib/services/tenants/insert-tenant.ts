import type { Tx } from "@/lib/db";
import { memberships, tenants } from "@/lib/db/schema";
import { writeAudit } from "@/lib/pipeline/audit";
import type { Env } from "@/lib/pipeline/capabilities";
import type { Actor } from "@/lib/pipeline/context";
import { defaultSpendCap, insertDefaultBudget } from "@/lib/services/budgets/default-budget";

/**
 * Inserts a tenant (and its owner membership) with its audit row and its default spend cap
 * (budgets/default-budget.ts), inside the caller's transaction.
 */
export async function insertTenant(
  tx: Tx,
  { actor, env }: { actor: Actor; env: Env },
  name: string,
  ownerUserId?: string,
) {
  const [tenant] = await tx.insert(tenants).values({ name }).returning();
  if (!tenant) throw new Error("tenant insert returned no row");
  if (ownerUserId)
    await tx.insert(memberships).values({ tenantId: tenant.id, userId: ownerUserId, role: "owner" });
  await writeAudit(tx, {
    tenantId: tenant.id,
    actor,
    action: "tenant.create",
    targetType: "tenant",
    targetId: tenant.id,
    details: { name, owner: ownerUserId ?? null },
  });
  const cap = defaultSpendCap(env);
  if (cap) await insertDefaultBudget(tx, { tenantId: tenant.id, actor }, cap);
  return tenant;
}
