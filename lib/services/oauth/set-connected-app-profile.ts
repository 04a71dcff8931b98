import { and, eq, isNull } from "drizzle-orm";
import { z } from "zod";
import { apiTokens, oauthGrants } from "@/lib/db/schema";
import { writeAudit } from "@/lib/pipeline/audit";
import {
  CONNECTED_APP_SCOPES,
  type ProfileRules,
  type Scope,
  type TenantContext,
  type VerbArgs,
} from "@/lib/pipeline/context";
import { ServiceError } from "@/lib/pipeline/errors";
import { parseInput } from "@/lib/pipeline/validate";
import { connectionProfileInput } from "@/lib/services/tokens/connection-profile";
import { lookUpTokensAgain } from "@/lib/services/tokens/verify-token";
import { managedGrants } from "./grant-managers";

export const setConnectedAppProfileInput = z.strictObject({
  id: z.uuid(),
  profile: connectionProfileInput,
});

/**
 * Replaces a connected app's profile (its grant's: every access token of the grant, those it refreshes into
 * too, answers to it), checked by `profiles` against the scopes the app holds. Admins set any app's, a member
 * their own (grant-managers.ts); the app itself cannot (its tokens never manage tokens). Its live access
 * tokens are read afresh by every instance once this returns.
 */
export async function setConnectedAppProfile({
  ctx,
  input,
  profiles,
}: VerbArgs<TenantContext, typeof setConnectedAppProfileInput> & { profiles: ProfileRules }) {
  const own = managedGrants(ctx);
  const { id, profile: asked } = parseInput(setConnectedAppProfileInput, input);
  const changed = await ctx.db.withTenant(ctx.tenantId, async (tx) => {
    const [grant] = await tx
      .select({ scopes: oauthGrants.scopes })
      .from(oauthGrants)
      .where(
        and(
          eq(oauthGrants.tenantId, ctx.tenantId),
          eq(oauthGrants.id, id),
          isNull(oauthGrants.revokedAt),
          own,
        ),
      )
      .for("update");
    if (!grant) throw new ServiceError("not_found", "connected app not found");
    const held = (grant.scopes as Scope[]).filter((scope) => CONNECTED_APP_SCOPES.includes(scope));
    const profile = profiles(asked, held);
    await tx.update(oauthGrants).set({ profile }).where(eq(oauthGrants.id, id));
    await writeAudit(tx, {
      tenantId: ctx.tenantId,
      actor: ctx.actor,
      action: "oauth.grant.profile",
      targetType: "oauth_grant",
      targetId: id,
      details: { profile },
    });
    const tokens = await tx
      .select({ hash: apiTokens.tokenHash })
      .from(apiTokens)
      .where(and(eq(apiTokens.grantId, id), isNull(apiTokens.revokedAt)));
    return { profile, hashes: tokens.map((token) => token.hash) };
  });
  await lookUpTokensAgain(ctx.kv, changed.hashes);
  return { id, profile: changed.profile };
}
