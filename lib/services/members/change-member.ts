import { and, eq } from "drizzle-orm";
import { z } from "zod";
import type { Tx } from "../../db";
import { memberships } from "../../db/schema";
import { writeAudit } from "../audit";
import { assertScope, type TenantContext } from "../context";
import { ServiceError } from "../errors";
import { parseInput } from "../validate";

export const changeMemberInput = z.strictObject({
  userId: z.uuid(),
  /** A new role, or null to remove the member. */
  role: z.enum(["owner", "admin", "member"]).nullable(),
});

/**
 * Owners left if `userId` stopped being one. The owner rows are locked, so two concurrent demotions
 * cannot each see the other owner and leave the tenant with none.
 */
async function ownersWithout(tx: Tx, userId: string): Promise<number> {
  const owners = await tx
    .select({ userId: memberships.userId })
    .from(memberships)
    .where(eq(memberships.role, "owner"))
    .for("update");
  return owners.filter((owner) => owner.userId !== userId).length;
}

/** Changes a member's role or removes the member (role null). */
export async function changeMember({
  ctx,
  input,
}: {
  ctx: TenantContext;
  input: z.input<typeof changeMemberInput>;
}) {
  assertScope(ctx, "admin");
  const { userId, role } = parseInput(changeMemberInput, input);
  return ctx.db.withTenant(ctx.tenantId, async (tx) => {
    const [current] = await tx
      .select({ role: memberships.role })
      .from(memberships)
      .where(and(eq(memberships.tenantId, ctx.tenantId), eq(memberships.userId, userId)))
      .for("update");
    if (!current) throw new ServiceError("not_found", "member not found");
    if (current.role === "owner" && role !== "owner" && (await ownersWithout(tx, userId)) === 0) {
      throw new ServiceError("conflict", "a workspace keeps at least one owner");
    }
    const where = and(eq(memberships.tenantId, ctx.tenantId), eq(memberships.userId, userId));
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
    return { userId, role };
  });
}
