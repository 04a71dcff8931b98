/** What an OAuth client does around Searchmux's authorization server in tests: PKCE pairs and requests. */
import { createHash, randomBytes } from "node:crypto";
import type { AuthorizationParams } from "@/lib/services/oauth/authorization-request";

export interface Pkce {
  verifier: string;
  challenge: string;
}

export function pkce(): Pkce {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

/** An authorization request of `clientId` for `redirectUri`, S256 with `challenge`, asking for `scope`. */
export function authorizationParams(
  clientId: string,
  redirectUri: string,
  challenge: string,
  extra: Partial<AuthorizationParams> = {},
): AuthorizationParams {
  return {
    response_type: "code",
    client_id: clientId,
    redirect_uri: redirectUri,
    code_challenge: challenge,
    code_challenge_method: "S256",
    state: "client-state",
    scope: "mcp search fetch answer papers",
    ...extra,
  };
}
