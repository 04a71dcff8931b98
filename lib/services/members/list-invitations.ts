import { asc, eq, sql } from "drizzle-orm";
import { invitations, users } from "@/lib/db/schema";
import { assertScope, type TenantContext } from "@/lib/pipeline/context";
import { pendingInvitations } from "./revoke-pending-invitations";

/** The workspace's pending invitations (neither accepted, revoked nor expired), soonest to expire first. */
export async function listInvitations({ ctx }: { ctx: TenantContext }) {
  assertScope(ctx, "admin");
  return ctx.db.withTenant(ctx.tenantId, (tx) =>
    tx
      .select({
        id: invitations.id,
        email: invitations.email,
        role: invitations.role,
        /** Who invited: their name or email; null for the operator, or an inviter no longer in the workspace. */
        invitedBy: sql<string | null>`coalesce(${users.name}, ${users.email})`,
        createdAt: invitations.createdAt,
        expiresAt: invitations.expiresAt,
      })
      .from(invitations)
      .leftJoin(users, eq(users.id, invitations.createdBy))
      .where(pendingInvitations(ctx))
      .orderBy(asc(invitations.expiresAt)),
  );
}
