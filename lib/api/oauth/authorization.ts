/**
 * The authorization request as the consent page receives it (the query string the authorization
 * endpoint passed on) and the response it sends the browser back with (RFC 6749 §4.1.2: the code or the
 * error, the client's `state`, and RFC 9207's `iss`).
 */
import { type AuthorizationParams, authorizationParams } from "@/lib/services/oauth/authorization-request";
import { OAuthError } from "@/lib/services/oauth/oauth-error";

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
