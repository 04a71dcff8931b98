/**
 * The secrets the authorization server hands out (codes, refresh tokens, client ids and secrets): 256
 * random bits after a prefix that says what it is. Only their SHA-256 is stored, as for API tokens.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

export { hashToken as hashSecret } from "@/lib/services/tokens/token-format";

export const CODE_PREFIX = "smc_";
export const REFRESH_TOKEN_PREFIX = "smr_";
export const CLIENT_ID_PREFIX = "smxc_";
export const CLIENT_SECRET_PREFIX = "smcs_";

export const newSecret = (prefix: string, bytes = 32) =>
  `${prefix}${randomBytes(bytes).toString("base64url")}`;

/** RFC 7636 §4.1: 43 to 128 unreserved characters. */
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
/** S256: the base64url SHA-256 of the verifier, unpadded. */
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

export const isS256Challenge = (challenge: string) => S256_CHALLENGE.test(challenge);

/** Whether `verifier` is the one `challenge` was made from (PKCE S256); constant time. */
export function pkceVerifies(verifier: string, challenge: string): boolean {
  if (!VERIFIER.test(verifier) || !isS256Challenge(challenge)) return false;
  const computed = Buffer.from(createHash("sha256").update(verifier).digest("base64url"));
  return timingSafeEqual(computed, Buffer.from(challenge));
}
