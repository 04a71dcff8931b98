import type { Tx } from "@/lib/db";
import { apiTokens, oauthRefreshTokens } from "@/lib/db/schema";
import type { Scope } from "@/lib/pipeline/context";
import { generateToken, hashToken, tokenDisplay } from "@/lib/services/tokens/token-format";
import { ACCESS_TOKEN_SECONDS, REFRESH_TOKEN_SECONDS } from "./policy";
import { hashSecret, newSecret, REFRESH_TOKEN_PREFIX } from "./secrets";

export interface IssuedGrant {
  id: string;
  tenantId: string;
  userId: string;
  resource: string;
  /** The client's name: the access token's name wherever tokens are listed or traced. */
  clientName: string;
}

/** The token response (RFC 6749 §5.1). */
export interface TokenResponse {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
  refresh_token: string;
  scope: string;
}

/**
 * Issues, inside the caller's transaction, a grant's next pair: an access token (an API token of the
 * workspace that answers to the approving member, with the grant's scopes, for its resource, living
 * ACCESS_TOKEN_SECONDS) and a refresh token of the grant's family.
 */
export async function issueTokens(
  tx: Tx,
  grant: IssuedGrant,
  scopes: readonly Scope[],
  now: Date,
): Promise<TokenResponse> {
  const accessToken = generateToken();
  const refreshToken = newSecret(REFRESH_TOKEN_PREFIX);
  await tx.insert(apiTokens).values({
    tenantId: grant.tenantId,
    name: grant.clientName.slice(0, 100),
    scopes: [...scopes],
    tokenHash: hashToken(accessToken),
    ...tokenDisplay(accessToken),
    createdBy: grant.userId,
    expiresAt: new Date(now.getTime() + ACCESS_TOKEN_SECONDS * 1000),
    grantId: grant.id,
    audience: grant.resource,
  });
  await tx.insert(oauthRefreshTokens).values({
    tokenHash: hashSecret(refreshToken),
    tenantId: grant.tenantId,
    grantId: grant.id,
    expiresAt: new Date(now.getTime() + REFRESH_TOKEN_SECONDS * 1000),
  });
  return {
    access_token: accessToken,
    token_type: "Bearer",
    expires_in: ACCESS_TOKEN_SECONDS,
    refresh_token: refreshToken,
    scope: scopes.join(" "),
  };
}
