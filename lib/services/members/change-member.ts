import { and, asc, eq } from "drizzle-orm";
import { z } from "zod";
import type { Tx } from "@/lib/db";
import { memberships } from "@/lib/db/schema";
import { writeAudit } from "@/lib/pipeline/audit";
import { type Actor, assertScope, type TenantContext, type VerbArgs } from "@/lib/pipeline/context";
import { ServiceError } from "@/lib/pipeline/errors";
import { parseInput } from "@/lib/pipeline/validate";
import { revokeLiveTokens } from "@/lib/services/tokens/revoke-live-tokens";
import { tombstoneTokens } from "@/lib/services/tokens/verify-token";
import { revokePendingInvitations } from "./revoke-pending-invitations";

export const changeMemberInput = z.strictObject({
  userId: z.uuid(),
  /** A new role, or null to remove the member. */
  role: z.enum(["owner", "admin", "member"]).nullable(),
});

type Role = z.infer<typeof changeMemberInput>["role"];

/**
 * The tenant's owners, locked. Every change locks them first and in one order, so changes serialize on
 * them without deadlocking: the actor's ownership and the count of owners left cannot change under it.
 */
async function lockOwners(tx: Tx, tenantId: string): Promise<string[]> {
  const owners = await tx
    .select({ userId: memberships.userId })
    .from(memberships)
    .where(and(eq(memberships.tenantId, tenantId), eq(memberships.role, "owner")))
    .orderBy(asc(memberships.userId))
    .for("update");
  return owners.map((owner) => owner.userId);
}

/** Owners of the tenant, and the operator CLI; tokens and admins never, whatever their scopes. */
function actsAsOwner(actor: Actor, owners: readonly string[]): boolean {
  return actor.kind === "operator" || (actor.kind === "user" && owners.includes(actor.userId));
}

/**
 * What a member's tokens lose with the change: removal revokes every token they created, a demotion to
 * member those holding the admin scope (a member cannot administer, so neither can their tokens).
 */
function tokensToRevoke(role: Role) {
  if (role === null) return { reason: "member.remove" };
  if (role === "member") return { reason: "member.role", scope: "admin" as const };
  return null;
}

/**
 * Whether the change takes from the member the right to invite (removal, demotion to member): then the
 * invitations they sent and nobody accepted yet are revoked too, so no one joins on a departed admin's word.
 */
const losesInviting = (role: Role) => role === null || role === "member";

/**
 * Changes a member's role or removes the member (role null). Admins manage members and admins; only an
 * owner makes someone owner or changes or removes an owner; a workspace keeps at least one owner. The
 * member's tokens that the change takes rights from, and their pending invitations when they can no longer
 * invite, are revoked in the same transaction.
 */
export async function changeMember({ ctx, input }: VerbArgs<TenantContext, typeof changeMemberInput>) {
  assertScope(ctx, "admin");
  const { userId, role } = parseInput(changeMemberInput, input);
  const revokedHashes = await ctx.db.withTenant(ctx.tenantId, async (tx) => {
    const owners = await lockOwners(tx, ctx.tenantId);
    const where = and(eq(memberships.tenantId, ctx.tenantId), eq(memberships.userId, userId));
    const [current] = await tx
      .select({ role: memberships.role })
      .from(memberships)
      .where(where)
      .for("update");
    if (!current) throw new ServiceError("not_found", "member not found");
    if ((current.role === "owner" || role === "owner") && !actsAsOwner(ctx.actor, owners)) {
      throw new ServiceError(
        "forbidden",
        "only an owner can make someone an owner, or change or remove an owner",
      );
    }
    if (current.role === "owner" && role !== "owner" && owners.every((owner) => owner === userId)) {
      throw new ServiceError("conflict", "a workspace keeps at least one owner");
    }
    if (role === null) await tx.delete(memberships).where(where);
    else await tx.update(memberships).set({ role }).where(where);
    await writeAudit(tx, {
      tenantId: ctx.tenantId,
      actor: ctx.actor,
      action: role === null ? "member.remove" : "member.role",
      targetType: "membership",
      targetId: userId,
      details: { from: current.role, to: role },
    });
    if (losesInviting(role)) {
      await revokePendingInvitations(tx, ctx, {
        createdBy: userId,
        reason: role === null ? "member.remove" : "member.role",
      });
    }
    const revoke = tokensToRevoke(role);
    return revoke ? revokeLiveTokens(tx, ctx, { createdBy: userId, ...revoke }) : [];
  });
  await tombstoneTokens(ctx.kv, revokedHashes);
  return { userId, role, revokedTokens: revokedHashes.length };
}
