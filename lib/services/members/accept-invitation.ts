import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import { invitations, memberships, users } from "@/lib/db/schema";
import { writeAudit } from "@/lib/pipeline/audit";
import type { SystemContext, VerbArgs } from "@/lib/pipeline/context";
import { ServiceError } from "@/lib/pipeline/errors";
import { parseInput } from "@/lib/pipeline/validate";
import { hashToken } from "@/lib/services/tokens/token-format";

export const acceptInvitationInput = z.strictObject({
  secret: z.string().min(16).max(200),
  userId: z.uuid(),
});

/**
 * Joins the signed-in user to the inviting tenant. The link is only valid for the invited email, once,
 * before it expires and unless it was revoked; any mismatch answers not_found so links cannot be probed.
 * A member already in the workspace keeps the higher of the two roles: an admin invitation makes a member an
 * admin (as its inviter could by inviting anyone as admin), and never lowers an owner or an admin. The answer
 * says the role held afterwards and whether the user was in the workspace already.
 */
export async function acceptInvitation({
  ctx,
  input,
}: VerbArgs<SystemContext, typeof acceptInvitationInput>) {
  const { secret, userId } = parseInput(acceptInvitationInput, input);
  return ctx.db.withSystem(async (tx) => {
    const [user] = await tx.select({ email: users.email }).from(users).where(eq(users.id, userId));
    const [invitation] = await tx
      .select()
      .from(invitations)
      .where(
        and(
          eq(invitations.tokenHash, hashToken(secret)),
          isNull(invitations.acceptedAt),
          isNull(invitations.revokedAt),
          gt(invitations.expiresAt, ctx.now()),
        ),
      )
      .for("update");
    if (!invitation || !user?.email || user.email.toLowerCase() !== invitation.email) {
      throw new ServiceError("not_found", "invitation not found or expired");
    }
    const [before] = await tx
      .select({ role: memberships.role })
      .from(memberships)
      .where(and(eq(memberships.tenantId, invitation.tenantId), eq(memberships.userId, userId)))
      .for("update");
    const [held] = await tx
      .insert(memberships)
      .values({ tenantId: invitation.tenantId, userId, role: invitation.role })
      .onConflictDoUpdate({
        target: [memberships.tenantId, memberships.userId],
        // Raised from member to admin only: never lowered, and owners are made by owners alone.
        set: {
          role: sql`case when ${memberships.role} = 'member' then excluded.role else ${memberships.role} end`,
        },
      })
      .returning({ role: memberships.role });
    const role = held?.role ?? invitation.role;
    await tx.update(invitations).set({ acceptedAt: ctx.now() }).where(eq(invitations.id, invitation.id));
    await writeAudit(tx, {
      tenantId: invitation.tenantId,
      actor: ctx.actor,
      action: "member.join",
      targetType: "membership",
      targetId: userId,
      details: {
        email: invitation.email,
        role,
        ...(before && { already_member: true, previous_role: before.role }),
      },
    });
    return { tenantId: invitation.tenantId, role, alreadyMember: before !== undefined };
  });
}
