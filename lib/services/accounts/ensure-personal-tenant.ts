import { eq, sql } from "drizzle-orm";
import { memberships, users } from "@/lib/db/schema";
import type { SystemContext } from "@/lib/pipeline/context";
import { insertTenant } from "@/lib/services/tenants/insert-tenant";

/**
 * Called on every sign-in: returns the user's first tenant, creating a personal one (owner) on the
 * first sign-in. The user row is locked so concurrent first sign-ins create one tenant, not two.
 */
export async function ensurePersonalTenant({
  ctx,
  input,
}: {
  ctx: SystemContext;
  input: { userId: string };
}) {
  return ctx.db.withSystem(async (tx) => {
    const [user] = await tx
      .select({ id: users.id, name: users.name, email: users.email })
      .from(users)
      .where(eq(users.id, input.userId))
      .for("update");
    if (!user) throw new Error(`user ${input.userId} does not exist`);
    const [membership] = await tx
      .select({ tenantId: memberships.tenantId, role: memberships.role })
      .from(memberships)
      .where(eq(memberships.userId, user.id))
      .orderBy(sql`${memberships.createdAt} asc`)
      .limit(1);
    if (membership) return membership;
    const owner = user.name ?? user.email ?? "My";
    const actor = { kind: "user" as const, userId: user.id };
    const tenant = await insertTenant(tx, { actor, env: ctx.env }, `${owner}'s workspace`, user.id);
    return { tenantId: tenant.id, role: "owner" as const };
  });
}
