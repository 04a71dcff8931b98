import { and, eq, isNotNull } from "drizzle-orm";
import { apiTokens, oauthGrants, oauthRefreshTokens } from "@/lib/db/schema";
import { writeAudit } from "@/lib/pipeline/audit";
import type { Platform } from "@/lib/pipeline/context";
import { hashToken } from "@/lib/services/tokens/token-format";
import { tombstoneTokens } from "@/lib/services/tokens/verify-token";
import type { OAuthClient } from "./resolve-client";
import { revokeGrant } from "./revoke-grant";
import { hashSecret, REFRESH_TOKEN_PREFIX } from "./secrets";

/**
 * Token revocation (RFC 7009) by the client the token was issued to: a refresh token ends its whole
 * grant (the connected app, its access tokens with it), an access token only itself. A token that is
 * unknown, already revoked or another client's is left alone, and the answer is the same (§2.2).
 */
export async function revokeOAuthToken({
  ctx,
  input,
}: {
  ctx: Platform;
  input: { client: OAuthClient; token: string };
}): Promise<void> {
  const { client, token } = input;
  const now = ctx.now();
  const actor = { kind: "oauth_client", clientId: client.id } as const;
  const revoked = await ctx.db.withSystem(async (tx): Promise<string[]> => {
    if (token.startsWith(REFRESH_TOKEN_PREFIX)) {
      const [found] = await tx
        .select({ tenantId: oauthGrants.tenantId, grantId: oauthGrants.id })
        .from(oauthRefreshTokens)
        .innerJoin(oauthGrants, eq(oauthGrants.id, oauthRefreshTokens.grantId))
        .where(and(eq(oauthRefreshTokens.tokenHash, hashSecret(token)), eq(oauthGrants.clientId, client.id)));
      return found ? revokeGrant(tx, { ...found, actor, reason: "client_revoked" }, now) : [];
    }
    const [access] = await tx
      .select({
        id: apiTokens.id,
        tenantId: apiTokens.tenantId,
        hash: apiTokens.tokenHash,
        revokedAt: apiTokens.revokedAt,
      })
      .from(apiTokens)
      .innerJoin(oauthGrants, eq(oauthGrants.id, apiTokens.grantId))
      .where(
        and(
          eq(apiTokens.tokenHash, hashToken(token)),
          isNotNull(apiTokens.grantId),
          eq(oauthGrants.clientId, client.id),
        ),
      );
    if (!access || access.revokedAt) return [];
    await tx.update(apiTokens).set({ revokedAt: now }).where(eq(apiTokens.id, access.id));
    await writeAudit(tx, {
      tenantId: access.tenantId,
      actor,
      action: "token.revoke",
      targetType: "api_token",
      targetId: access.id,
      details: { reason: "client_revoked" },
    });
    return [access.hash];
  });
  await tombstoneTokens(ctx.kv, revoked);
}
