import { and, eq, gt, isNull, type SQL } from "drizzle-orm";
import type { Tx } from "@/lib/db";
import { invitations } from "@/lib/db/schema";
import { writeAudit } from "@/lib/pipeline/audit";
import type { TenantContext } from "@/lib/pipeline/context";

/** The tenant's invitations still pending: neither accepted, revoked nor expired. */
export const pendingInvitations = (ctx: TenantContext): SQL | undefined =>
  and(
    eq(invitations.tenantId, ctx.tenantId),
    isNull(invitations.acceptedAt),
    isNull(invitations.revokedAt),
    gt(invitations.expiresAt, ctx.now()),
  );

/**
 * Revokes, inside the caller's transaction, the tenant's pending invitations (neither accepted, revoked nor
 * expired) — the one with `id`, or those `createdBy` made — with an audit row each naming `reason`.
 * Returns the revoked invitations.
 */
export async function revokePendingInvitations(
  tx: Tx,
  ctx: TenantContext,
  { id, createdBy, reason }: { id?: string; createdBy?: string; reason: string },
) {
  const revoked = await tx
    .update(invitations)
    .set({ revokedAt: ctx.now() })
    .where(
      and(
        pendingInvitations(ctx),
        id === undefined ? undefined : eq(invitations.id, id),
        createdBy === undefined ? undefined : eq(invitations.createdBy, createdBy),
      ),
    )
    .returning({ id: invitations.id, email: invitations.email, role: invitations.role });
  for (const invitation of revoked) {
    await writeAudit(tx, {
      tenantId: ctx.tenantId,
      actor: ctx.actor,
      action: "invitation.revoke",
      targetType: "invitation",
      targetId: invitation.id,
      details: { email: invitation.email, role: invitation.role, reason },
    });
  }
  return revoked;
}
