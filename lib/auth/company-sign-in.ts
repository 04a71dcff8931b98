/**
 * Company sign-in: any OpenID Connect provider, configured by its issuer (AUTH_OIDC_ISSUER) and found by
 * discovery. next-auth v4 has no `type: "oidc"` (that is v5); an OIDC provider there is `type: "oauth"`
 * with `wellKnown` and `idToken: true`, so the ID token is verified by openid-client: signature against
 * the discovered keys, `iss` equal to the discovered issuer, `aud` our client id, expiry, and the nonce; the
 * state and the PKCE verifier ride in signed cookies.
 */

import type { OAuthConfig } from "next-auth/providers/oauth";
import type { OidcSignIn } from "@/lib/config";

/** next-auth's provider id: the callback URL is `<AUTH_URL>/api/auth/callback/oidc`. */
export const OIDC_PROVIDER_ID = "oidc";

/** The ID token's claims this sign-in reads. */
export interface OidcClaims {
  iss?: string;
  sub: string;
  email?: string;
  /** A boolean by the spec; some providers send "true"/"false". */
  email_verified?: boolean | string;
  name?: string;
  preferred_username?: string;
  picture?: string;
}

/** Refusals after the provider answered, each explained on the sign-in page (`?error=`). */
export type OidcRefusal = "OidcIssuer" | "OidcNoEmail" | "OidcEmailUnverified";

const withoutTrailingSlash = (url: string) => url.replace(/\/+$/, "");

export function companySignInProvider(settings: OidcSignIn): OAuthConfig<OidcClaims> {
  return {
    id: OIDC_PROVIDER_ID,
    name: settings.name,
    type: "oauth",
    wellKnown: `${withoutTrailingSlash(settings.issuer)}/.well-known/openid-configuration`,
    authorization: { params: { scope: "openid email profile" } },
    idToken: true,
    checks: ["pkce", "state", "nonce"],
    clientId: settings.clientId,
    clientSecret: settings.clientSecret,
    profile: (claims) => ({
      id: claims.sub,
      name: claims.name ?? claims.preferred_username ?? null,
      email: claims.email ?? null,
      image: claims.picture ?? null,
    }),
  };
}

/**
 * Why a company sign-in is refused before any account is made or linked (next-auth's signIn callback runs
 * first), or null:
 * - an ID token of another issuer than AUTH_OIDC_ISSUER (discovery may name any issuer; openid-client
 *   checks the token against that one, this against the operator's);
 * - no email: memberships, invitations and the operator list go by email address;
 * - `email_verified: false`: anyone could claim any address at such a provider, and with it accept an
 *   invitation sent to that address or hold an operator's rights. A provider that omits the claim (Microsoft
 *   Entra ID does) is trusted for its addresses: the operator chose it.
 */
export function oidcRefusal(settings: OidcSignIn, claims: Partial<OidcClaims>): OidcRefusal | null {
  if (withoutTrailingSlash(claims.iss ?? "") !== withoutTrailingSlash(settings.issuer)) return "OidcIssuer";
  if (!claims.email) return "OidcNoEmail";
  if (claims.email_verified === false || claims.email_verified === "false") return "OidcEmailUnverified";
  return null;
}
