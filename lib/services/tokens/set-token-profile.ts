import { and, eq, isNull } from "drizzle-orm";
import { z } from "zod";
import { apiTokens } from "@/lib/db/schema";
import { writeAudit } from "@/lib/pipeline/audit";
import type { ProfileRules, Scope, TenantContext, VerbArgs } from "@/lib/pipeline/context";
import { ServiceError } from "@/lib/pipeline/errors";
import { parseInput } from "@/lib/pipeline/validate";
import { connectionProfileInput } from "./connection-profile";
import { managedTokens } from "./token-managers";
import { lookUpTokensAgain } from "./verify-token";

export const setTokenProfileInput = z.strictObject({
  id: z.uuid(),
  profile: connectionProfileInput,
});

/**
 * Replaces the profile of a token the caller manages (token-managers.ts: admins any, a member their own;
 * any other is not found), checked by `profiles` against the token's own scopes, with its audit row. The row
 * is locked while it is checked, and every instance reads the token afresh once this returns.
 */
export async function setTokenProfile({
  ctx,
  input,
  profiles,
}: VerbArgs<TenantContext, typeof setTokenProfileInput> & { profiles: ProfileRules }) {
  const managed = managedTokens(ctx);
  const { id, profile: asked } = parseInput(setTokenProfileInput, input);
  const changed = await ctx.db.withTenant(ctx.tenantId, async (tx) => {
    const [token] = await tx
      .select({ scopes: apiTokens.scopes, hash: apiTokens.tokenHash, name: apiTokens.name })
      .from(apiTokens)
      .where(
        and(
          eq(apiTokens.tenantId, ctx.tenantId),
          eq(apiTokens.id, id),
          isNull(apiTokens.revokedAt),
          // A connected app's access token takes its grant's profile (setConnectedAppProfile).
          isNull(apiTokens.grantId),
          managed,
        ),
      )
      .for("update");
    if (!token) throw new ServiceError("not_found", "token not found");
    const profile = profiles(asked, token.scopes as Scope[]);
    await tx.update(apiTokens).set({ profile }).where(eq(apiTokens.id, id));
    await writeAudit(tx, {
      tenantId: ctx.tenantId,
      actor: ctx.actor,
      action: "token.profile",
      targetType: "api_token",
      targetId: id,
      details: { name: token.name, profile },
    });
    return { hash: token.hash, profile };
  });
  await lookUpTokensAgain(ctx.kv, [changed.hash]);
  return { id, profile: changed.profile };
}
