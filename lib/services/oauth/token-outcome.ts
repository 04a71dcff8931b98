import type { Kv } from "@/lib/kv";
import { tombstoneTokens } from "@/lib/services/tokens/verify-token";
import type { TokenResponse } from "./issue-tokens";
import { OAuthError, type OAuthErrorCode } from "./oauth-error";

/**
 * What a token request's transaction decides: tokens, or a refusal that may have revoked a grant on the
 * way (reuse detected). The revocation commits with the transaction, so the refusal is thrown after it.
 */
export type TokenOutcome = { tokens: TokenResponse } | { refused: OAuthError; revoked: string[] };

export const refusal = (code: OAuthErrorCode, message: string, revoked: string[] = []): TokenOutcome => ({
  refused: new OAuthError(code, message),
  revoked,
});

/** The tokens, or the refusal thrown once the access tokens it revoked are tombstoned. */
export async function settleTokenOutcome(kv: Kv, outcome: TokenOutcome): Promise<TokenResponse> {
  if ("tokens" in outcome) return outcome.tokens;
  await tombstoneTokens(kv, outcome.revoked);
  throw outcome.refused;
}

/** A resource indicator as tokens record it: without trailing slashes. */
export const canonicalResource = (uri: string) => uri.replace(/\/+$/, "");
