import { eq } from "drizzle-orm";
import type { Tx } from "@/lib/db";
import { oauthCodes, oauthGrants } from "@/lib/db/schema";
import { type OAuthClientActor, writeAudit } from "@/lib/pipeline/audit";
import type { Platform, Scope } from "@/lib/pipeline/context";
import { issueTokens, type TokenResponse } from "./issue-tokens";
import { memberAppScopes } from "./member-scopes";
import type { OAuthClient } from "./resolve-client";
import { revokeGrant } from "./revoke-grant";
import { hashSecret, pkceVerifies } from "./secrets";
import { canonicalResource, refusal, settleTokenOutcome, type TokenOutcome } from "./token-outcome";

export interface CodeExchange {
  code: string;
  codeVerifier: string | undefined;
  redirectUri: string | undefined;
  resource: string | undefined;
}

type CodeRow = typeof oauthCodes.$inferSelect;

/**
 * Why the presented code grants nothing, or null when it may: the checks in the order OAuth 2.1 §4.1.3 reads
 * them. A code presented again revokes the grant its first exchange created; a wrong verifier uses it up.
 */
async function codeRefusal(
  tx: Tx,
  code: CodeRow,
  { client, exchange }: { client: OAuthClient; exchange: CodeExchange },
  actor: OAuthClientActor,
  now: Date,
): Promise<TokenOutcome | null> {
  if (code.clientId !== client.id) return refusal("invalid_grant", "the code was issued to another client");
  if (code.usedAt) {
    const revoked = code.grantId
      ? await revokeGrant(
          tx,
          { tenantId: code.tenantId, grantId: code.grantId, actor, reason: "authorization_code_reused" },
          now,
        )
      : [];
    return refusal("invalid_grant", "the authorization code was already used", revoked);
  }
  if (code.expiresAt <= now) return refusal("invalid_grant", "the authorization code expired");
  if (exchange.redirectUri !== undefined && exchange.redirectUri !== code.redirectUri) {
    return refusal("invalid_grant", "redirect_uri differs from the authorization request's");
  }
  if (exchange.resource !== undefined && canonicalResource(exchange.resource) !== code.resource) {
    return refusal("invalid_target", "resource differs from the authorization request's");
  }
  if (!exchange.codeVerifier || !pkceVerifies(exchange.codeVerifier, code.codeChallenge)) {
    await tx.update(oauthCodes).set({ usedAt: now }).where(eq(oauthCodes.codeHash, code.codeHash));
    return refusal("invalid_grant", "code_verifier does not match the code_challenge");
  }
  return null;
}

/** The code's scopes its member's role still holds, or why there are none. */
async function heldScopes(tx: Tx, code: CodeRow): Promise<Scope[] | TokenOutcome> {
  const scopes = await memberAppScopes(tx, code, code.scopes);
  if (!scopes) return refusal("invalid_grant", "the approving member no longer belongs to the workspace");
  return scopes.length > 0
    ? scopes
    : refusal("invalid_grant", "the approving member's role no longer holds these scopes");
}

/** The connected app: its grant, the code marked used by it, the audit row and its first tokens. */
async function createGrant(
  tx: Tx,
  {
    code,
    client,
    scopes,
    actor,
  }: { code: CodeRow; client: OAuthClient; scopes: Scope[]; actor: OAuthClientActor },
  now: Date,
): Promise<TokenResponse> {
  const [grant] = await tx
    .insert(oauthGrants)
    .values({
      tenantId: code.tenantId,
      clientId: client.id,
      userId: code.userId,
      scopes,
      resource: code.resource,
      createdAt: now,
    })
    .returning({ id: oauthGrants.id });
  if (!grant) throw new Error("grant insert returned no row");
  await tx
    .update(oauthCodes)
    .set({ usedAt: now, grantId: grant.id })
    .where(eq(oauthCodes.codeHash, code.codeHash));
  await writeAudit(tx, {
    tenantId: code.tenantId,
    actor,
    action: "oauth.grant",
    targetType: "oauth_grant",
    targetId: grant.id,
    details: { client_name: client.name, scopes, resource: code.resource, approved_by: code.userId },
  });
  const holder = {
    id: grant.id,
    tenantId: code.tenantId,
    userId: code.userId,
    resource: code.resource,
    clientName: client.name,
  };
  return issueTokens(tx, holder, scopes, now);
}

/**
 * The authorization code grant (OAuth 2.1 §4.1.3) for an authenticated `client`: the code must be its
 * own, unexpired and unused, the PKCE verifier must match, the redirect URI and resource (when sent) must
 * be the ones it was issued with, and its member must still belong to the workspace. A grant (the
 * connected app) is created with its first tokens. A code presented twice is refused and the grant its
 * first exchange created is revoked (OAuth 2.1 §4.1.2); a wrong verifier uses the code up.
 */
export async function exchangeCode({
  ctx,
  input,
}: {
  ctx: Platform;
  input: { client: OAuthClient; exchange: CodeExchange };
}): Promise<TokenResponse> {
  const now = ctx.now();
  const actor: OAuthClientActor = { kind: "oauth_client", clientId: input.client.id };
  const outcome = await ctx.db.withSystem(async (tx): Promise<TokenOutcome> => {
    const [code] = await tx
      .select()
      .from(oauthCodes)
      .where(eq(oauthCodes.codeHash, hashSecret(input.exchange.code)))
      .for("update");
    if (!code) return refusal("invalid_grant", "unknown authorization code");
    const refused = await codeRefusal(tx, code, input, actor, now);
    if (refused) return refused;
    const scopes = await heldScopes(tx, code);
    if (!Array.isArray(scopes)) return scopes;
    return { tokens: await createGrant(tx, { code, client: input.client, scopes, actor }, now) };
  });
  return settleTokenOutcome(ctx.kv, outcome);
}
