import type { Tx } from "@/lib/db";
import { memberships, tenants } from "@/lib/db/schema";
import { writeAudit } from "@/lib/pipeline/audit";
import type { Actor } from "@/lib/pipeline/context";

/** Inserts a tenant (and its owner membership) with its audit row, inside the caller's transaction. */
export async function insertTenant(tx: Tx, actor: Actor, name: string, ownerUserId?: string) {
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
  return tenant;
}
