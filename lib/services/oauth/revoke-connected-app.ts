import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { oauthGrants } from "@/lib/db/schema";
import type { TenantContext, VerbArgs } from "@/lib/pipeline/context";
import { ServiceError } from "@/lib/pipeline/errors";
import { parseInput } from "@/lib/pipeline/validate";
import { tombstoneTokens } from "@/lib/services/tokens/verify-token";
import { managedGrants } from "./grant-managers";
import { revokeGrant } from "./revoke-grant";

export const revokeConnectedAppInput = z.strictObject({ id: z.uuid() });

/**
 * Disconnects an app: its grant is revoked (refresh tokens refused), its access tokens too, and every
 * instance refuses them as soon as KV holds their tombstones. Admins disconnect any, a member their own.
 */
export async function revokeConnectedApp({
  ctx,
  input,
}: VerbArgs<TenantContext, typeof revokeConnectedAppInput>) {
  const { id } = parseInput(revokeConnectedAppInput, input);
  const own = managedGrants(ctx);
  const revoked = await ctx.db.withTenant(ctx.tenantId, async (tx) => {
    const [grant] = await tx
      .select({ id: oauthGrants.id })
      .from(oauthGrants)
      .where(and(eq(oauthGrants.tenantId, ctx.tenantId), eq(oauthGrants.id, id), own))
      .for("update");
    if (!grant) throw new ServiceError("not_found", "connected app not found");
    return revokeGrant(
      tx,
      { tenantId: ctx.tenantId, grantId: id, actor: ctx.actor, reason: "disconnected" },
      ctx.now(),
    );
  });
  await tombstoneTokens(ctx.kv, revoked);
  return { id, revoked: true };
}
