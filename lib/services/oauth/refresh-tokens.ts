import { and, eq, lt, max, sql } from "drizzle-orm";
import type { Tx } from "@/lib/db";
import { apiTokens, oauthClients, oauthGrants, oauthRefreshTokens } from "@/lib/db/schema";
import type { OAuthClientActor } from "@/lib/pipeline/audit";
import type { Platform, Scope } from "@/lib/pipeline/context";
import { issueTokens, type TokenResponse } from "./issue-tokens";
import { memberAppScopes } from "./member-scopes";
import { IDLE_CLIENT_SECONDS } from "./policy";
import type { OAuthClient } from "./resolve-client";
import { revokeGrant } from "./revoke-grant";
import { hashSecret } from "./secrets";
import { canonicalResource, refusal, settleTokenOutcome, type TokenOutcome } from "./token-outcome";

/** How long an expired access token is kept (its last use shown) before a refresh deletes it. */
const EXPIRED_TOKEN_KEPT_MS = 86_400_000;

/**
 * Folds the last use of the grant's long-expired access tokens into the grant and deletes them: a grant
 * refreshed hourly for months would otherwise keep thousands of dead tokens.
 */
async function keepLastUse(tx: Tx, grantId: string, now: Date): Promise<void> {
  const expired = and(
    eq(apiTokens.grantId, grantId),
    lt(apiTokens.expiresAt, new Date(now.getTime() - EXPIRED_TOKEN_KEPT_MS)),
  );
  const [used] = await tx
    .select({ at: max(apiTokens.lastUsedAt) })
    .from(apiTokens)
    .where(expired);
  if (used?.at) {
    await tx
      .update(oauthGrants)
      .set({ lastUsedAt: sql`greatest(${oauthGrants.lastUsedAt}, ${used.at})` })
      .where(eq(oauthGrants.id, grantId));
  }
  await tx.delete(apiTokens).where(expired);
}

export interface RefreshRequest {
  refreshToken: string;
  /** A narrower set of the grant's scopes (RFC 6749 §6); all of them when absent. */
  scope: string | undefined;
  resource: string | undefined;
}

type Found = { token: typeof oauthRefreshTokens.$inferSelect; grant: typeof oauthGrants.$inferSelect };

/**
 * Why the refresh token grants nothing, or null when it may. Reuse of a rotated token (a stolen copy, or
 * the client's) revokes the whole grant.
 */
async function refreshRefusal(
  { token, grant }: Found,
  { client, refresh }: { client: OAuthClient; refresh: RefreshRequest },
  revoke: (reason: string) => Promise<string[]>,
  now: Date,
): Promise<TokenOutcome | null> {
  if (grant.clientId !== client.id)
    return refusal("invalid_grant", "the refresh token was issued to another client");
  if (grant.revokedAt) return refusal("invalid_grant", "the grant was revoked");
  if (token.rotatedAt) {
    return refusal(
      "invalid_grant",
      "the refresh token was already used; the grant is revoked",
      await revoke("refresh_token_reused"),
    );
  }
  if (token.expiresAt <= now) return refusal("invalid_grant", "the refresh token expired");
  if (refresh.resource !== undefined && canonicalResource(refresh.resource) !== grant.resource) {
    return refusal("invalid_target", "resource differs from the grant's");
  }
  const asked = askedScopes(refresh);
  if (asked?.some((scope) => !grant.scopes.includes(scope))) {
    return refusal("invalid_scope", "scope exceeds what was granted");
  }
  return null;
}

const askedScopes = (refresh: RefreshRequest) => refresh.scope?.split(" ").filter(Boolean);

/** The refresh token used up, the grant's old tokens folded, the client kept alive, new tokens issued. */
async function rotate(
  tx: Tx,
  { token, grant, client, scopes }: Found & { client: OAuthClient; scopes: Scope[] },
  now: Date,
): Promise<TokenResponse> {
  await tx
    .update(oauthRefreshTokens)
    .set({ rotatedAt: now })
    .where(eq(oauthRefreshTokens.tokenHash, token.tokenHash));
  await keepLastUse(tx, grant.id, now);
  await tx
    .update(oauthClients)
    .set({ expiresAt: new Date(now.getTime() + IDLE_CLIENT_SECONDS * 1000) })
    .where(eq(oauthClients.id, client.id));
  const holder = {
    id: grant.id,
    tenantId: grant.tenantId,
    userId: grant.userId,
    resource: grant.resource,
    clientName: client.name,
  };
  return issueTokens(tx, holder, scopes, now);
}

/**
 * The refresh token grant with rotation (OAuth 2.1 §4.3.1): the refresh token is exchanged once for a
 * new access token and refresh token of the same grant. Presenting one already exchanged is reuse (a
 * stolen copy, or the client's): the whole grant is revoked, its access tokens with it. Scopes are the
 * grant's as far as the approving member's role still holds them; a member who left ends the grant.
 */
export async function refreshTokens({
  ctx,
  input,
}: {
  ctx: Platform;
  input: { client: OAuthClient; refresh: RefreshRequest };
}): Promise<TokenResponse> {
  const now = ctx.now();
  const actor: OAuthClientActor = { kind: "oauth_client", clientId: input.client.id };
  const outcome = await ctx.db.withSystem(async (tx): Promise<TokenOutcome> => {
    const [found] = await tx
      .select({ token: oauthRefreshTokens, grant: oauthGrants })
      .from(oauthRefreshTokens)
      .innerJoin(oauthGrants, eq(oauthGrants.id, oauthRefreshTokens.grantId))
      .where(eq(oauthRefreshTokens.tokenHash, hashSecret(input.refresh.refreshToken)))
      .for("update");
    if (!found) return refusal("invalid_grant", "unknown refresh token");
    const { grant } = found;
    const revoke = (reason: string) =>
      revokeGrant(tx, { tenantId: grant.tenantId, grantId: grant.id, actor, reason }, now);
    const refused = await refreshRefusal(found, input, revoke, now);
    if (refused) return refused;
    const asked = askedScopes(input.refresh);
    const held = await memberAppScopes(
      tx,
      grant,
      grant.scopes.filter((scope) => asked?.includes(scope) ?? true),
    );
    if (!held) {
      return refusal(
        "invalid_grant",
        "the approving member no longer belongs to the workspace",
        await revoke("member_left"),
      );
    }
    if (held.length === 0)
      return refusal("invalid_grant", "the approving member's role no longer holds these scopes");
    return { tokens: await rotate(tx, { ...found, client: input.client, scopes: held }, now) };
  });
  return settleTokenOutcome(ctx.kv, outcome);
}
