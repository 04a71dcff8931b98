import { randomBytes } from "node:crypto";
import { z } from "zod";
import { invitations } from "@/lib/db/schema";
import { writeAudit } from "@/lib/pipeline/audit";
import { assertScope, type TenantContext, type VerbArgs } from "@/lib/pipeline/context";
import { parseInput } from "@/lib/pipeline/validate";
import { hashToken } from "@/lib/services/tokens/token-format";

const INVITATION_DAYS = 7;

export const inviteMemberInput = z.strictObject({
  email: z
    .email()
    .max(320)
    .transform((e) => e.toLowerCase()),
  /** Owners are made by an owner changing a member's role, never by invitation. */
  role: z.enum(["admin", "member"]).default("member"),
});

/**
 * Invites someone by email. The result carries the secret of the invitation link once (only its hash is
 * stored); without a mail transport the dashboard shows the link to pass on.
 */
export async function inviteMember({ ctx, input }: VerbArgs<TenantContext, typeof inviteMemberInput>) {
  assertScope(ctx, "admin");
  const { email, role } = parseInput(inviteMemberInput, input);
  const secret = randomBytes(24).toString("base64url");
  const expiresAt = new Date(ctx.now().getTime() + INVITATION_DAYS * 86_400_000);
  return ctx.db.withTenant(ctx.tenantId, async (tx) => {
    const [row] = await tx
      .insert(invitations)
      .values({
        tenantId: ctx.tenantId,
        email,
        role,
        tokenHash: hashToken(secret),
        createdBy: ctx.actor.kind === "user" ? ctx.actor.userId : null,
        expiresAt,
      })
      .returning({ id: invitations.id });
    if (!row) throw new Error("invitation insert returned no row");
    await writeAudit(tx, {
      tenantId: ctx.tenantId,
      actor: ctx.actor,
      action: "member.invite",
      targetType: "invitation",
      targetId: row.id,
      details: { email, role },
    });
    return { id: row.id, email, role, expiresAt, secret, path: `/invite/${secret}` };
  });
}
