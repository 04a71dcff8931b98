import { z } from "zod";
import { assertScope, type TenantContext, type VerbArgs } from "@/lib/pipeline/context";
import { ServiceError } from "@/lib/pipeline/errors";
import { parseInput } from "@/lib/pipeline/validate";
import { revokePendingInvitations } from "./revoke-pending-invitations";

export const revokeInvitationInput = z.strictObject({ id: z.uuid() });

/** Revokes a pending invitation: its link stops working at once. Another tenant's, or a used one, is not found. */
export async function revokeInvitation({
  ctx,
  input,
}: VerbArgs<TenantContext, typeof revokeInvitationInput>) {
  assertScope(ctx, "admin");
  const { id } = parseInput(revokeInvitationInput, input);
  const [revoked] = await ctx.db.withTenant(ctx.tenantId, (tx) =>
    revokePendingInvitations(tx, ctx, { id, reason: "invitation.revoke" }),
  );
  if (!revoked) throw new ServiceError("not_found", "no pending invitation with this id");
  return { id, email: revoked.email, revoked: true };
}
