/**
 * The authorization request as the consent page receives it (the query string the authorization
 * endpoint passed on), what the page shows for it, and the response it sends the browser back with
 * (RFC 6749 §4.1.2: the code or the error, the client's `state`, and RFC 9207's `iss`).
 */
import type { Platform } from "@/lib/pipeline/context";
import {
  type AuthorizationParams,
  type AuthorizationRequest,
  authorizationParams,
  checkAuthorizationRequest,
} from "@/lib/services/oauth/authorization-request";
import { OAuthError } from "@/lib/services/oauth/oauth-error";
import { redirectHost } from "@/lib/services/oauth/redirect-uris";

/** The request's parameters; a repeated one (RFC 6749 §3.1) makes the request unusable. */
export function parseAuthorizationQuery(query: string): AuthorizationParams {
  const search = new URLSearchParams(query);
  const names = [...search.keys()];
  const repeated = names.find((name, index) => names.indexOf(name) !== index);
  if (repeated) throw new OAuthError("invalid_request", `parameter '${repeated}' is repeated`);
  return authorizationParams.parse(Object.fromEntries(search));
}

/** The redirect URI with the response's parameters, `iss` always among them. */
export function authorizationResponseUrl(
  redirectUri: string,
  issuer: string,
  params: Record<string, string | undefined>,
): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params))
    if (value !== undefined) url.searchParams.set(name, value);
  url.searchParams.set("iss", issuer);
  return url.toString();
}

/** Where to send the browser when the request was refused (or denied): the client's redirect URI. */
export function authorizationErrorUrl(
  redirectUri: string,
  issuer: string,
  error: OAuthError,
  state: string | undefined,
): string {
  return authorizationResponseUrl(redirectUri, issuer, {
    error: error.code,
    error_description: error.message,
    state,
  });
}

/**
 * A request the consent page cannot go on with. When only the request is wrong (its client and redirect
 * URI are known), `returnTo` is the way back: the error response at the redirect URI, a link the member
 * must click. Never an automatic redirect: registration is open to any HTTPS redirect URI, so following
 * one unasked would send a signed-in member wherever a stranger chose (RFC 9700 §4.11.2). Without
 * `returnTo` (unknown client, unregistered redirect URI) the page offers no way back at all.
 */
export interface RefusedAuthorization {
  error: OAuthError;
  returnTo?: { host: string; url: string };
}

/**
 * What the consent page shows for the request `query`: the consent to `request`, or why it is `refused`.
 * `issuer` is this site's origin, `resources` those tokens may be issued for (the default first).
 */
export async function consentRequest(
  ctx: Platform,
  { query, issuer, resources }: { query: string; issuer: string; resources: readonly string[] },
): Promise<{ request: AuthorizationRequest } | { refused: RefusedAuthorization }> {
  try {
    const params = parseAuthorizationQuery(query);
    const checked = await checkAuthorizationRequest({ ctx, input: { params, resources } });
    if ("request" in checked) return checked;
    const { refused, redirectUri, state } = checked;
    const url = authorizationErrorUrl(redirectUri, issuer, refused, state);
    return { refused: { error: refused, returnTo: { host: redirectHost(redirectUri), url } } };
  } catch (error) {
    if (error instanceof OAuthError) return { refused: { error } };
    throw error;
  }
}
