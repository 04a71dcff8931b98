/**
 * An authorization request (OAuth 2.1 §4.1.1 with PKCE, RFC 8707's `resource`) checked against its
 * client. What cannot be trusted to redirect (an unknown client, a redirect URI it did not register) is
 * thrown, for the page to show; anything else wrong is answered to the client at its redirect URI, but
 * only through a link the member clicks (RFC 9700 §4.11.2: anyone may register any HTTPS redirect URI).
 */
import { z } from "zod";
import type { Platform } from "@/lib/pipeline/context";
import { CONNECTED_APP_SCOPES, DEFAULT_TOKEN_SCOPES, type Scope } from "@/lib/pipeline/context";
import { OAuthError } from "./oauth-error";
import { matchesRedirectUri } from "./redirect-uris";
import { type OAuthClient, resolveClient } from "./resolve-client";
import { isS256Challenge } from "./secrets";
import { canonicalResource } from "./token-outcome";

/** The request's parameters as they arrive (query string); anything but a string is absent. */
export const authorizationParams = z.object({
  response_type: z.string().optional(),
  client_id: z.string().optional(),
  redirect_uri: z.string().optional(),
  state: z.string().max(2_000).optional(),
  scope: z.string().max(2_000).optional(),
  code_challenge: z.string().optional(),
  code_challenge_method: z.string().optional(),
  resource: z.string().optional(),
});
export type AuthorizationParams = z.infer<typeof authorizationParams>;

export interface AuthorizationRequest {
  client: OAuthClient;
  redirectUri: string;
  state: string | undefined;
  codeChallenge: string;
  /** The scopes asked for that Searchmux knows (others are ignored); the default set when none. */
  scopes: Scope[];
  /** The resource the tokens will be for: one of the accepted ones. */
  resource: string;
}

export type CheckedAuthorization =
  | { request: AuthorizationRequest }
  /** To answer at `redirectUri` (with `state`) once the member has seen it, never by itself. */
  | { refused: OAuthError; redirectUri: string; state: string | undefined };

/**
 * The requested scopes a connected app may hold, in Searchmux's order (others, `admin` among them, are
 * ignored); the default set when the request names none.
 */
function requestedScopes(scope: string | undefined): Scope[] {
  const named = new Set((scope ?? "").split(" ").filter(Boolean));
  const known = CONNECTED_APP_SCOPES.filter((candidate) => named.has(candidate));
  return known.length > 0 ? known : [...DEFAULT_TOKEN_SCOPES];
}

/**
 * Checks `params` against its client and the resources tokens may be issued for (`resources`: this
 * server's canonical MCP resource URL first, the default when the request names none).
 */
export async function checkAuthorizationRequest({
  ctx,
  input,
}: {
  ctx: Platform;
  input: { params: AuthorizationParams; resources: readonly string[] };
}): Promise<CheckedAuthorization> {
  const { params, resources } = input;
  if (!params.client_id) throw new OAuthError("invalid_request", "client_id is missing");
  const client = await resolveClient({ ctx, input: { clientId: params.client_id } });
  const redirectUri = params.redirect_uri ?? soleRedirectUri(client);
  if (!redirectUri || !matchesRedirectUri(redirectUri, client.redirectUris)) {
    throw new OAuthError(
      "invalid_request",
      params.redirect_uri
        ? "redirect_uri is not one the client registered"
        : "redirect_uri is missing and the client registered several",
    );
  }
  const state = params.state;
  const refuse = (refused: OAuthError): CheckedAuthorization => ({ refused, redirectUri, state });

  if (params.response_type !== "code") {
    return refuse(new OAuthError("unsupported_response_type", "response_type must be 'code'"));
  }
  if (!params.code_challenge || params.code_challenge_method !== "S256") {
    return refuse(new OAuthError("invalid_request", "PKCE is required: code_challenge with method S256"));
  }
  if (!isS256Challenge(params.code_challenge)) {
    return refuse(new OAuthError("invalid_request", "code_challenge is not an S256 challenge"));
  }
  const resource = params.resource ?? resources[0];
  const accepted = resources.find(
    (candidate) => canonicalResource(candidate) === canonicalResource(resource ?? ""),
  );
  if (!accepted) {
    return refuse(new OAuthError("invalid_target", `tokens are issued only for ${resources.join(", ")}`));
  }
  return {
    request: {
      client,
      redirectUri,
      state,
      codeChallenge: params.code_challenge,
      scopes: requestedScopes(params.scope),
      resource: accepted,
    },
  };
}

/** OAuth 2.1 §2.3.2: the redirect URI may be left out when the client registered exactly one. */
function soleRedirectUri(client: OAuthClient): string | undefined {
  return client.redirectUris.length === 1 ? client.redirectUris[0] : undefined;
}
