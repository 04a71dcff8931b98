/**
 * The OAuth endpoints (the routes under app/api/oauth are these): authorization (to the consent page),
 * token (RFC 6749 §3.2: code exchange, refresh), registration (RFC 7591) and revocation (RFC 7009). Each
 * reads the request, calls the verb of lib/services/oauth, and answers in OAuth's terms (responses.ts).
 */
import { readJsonBody } from "@/lib/api/body";
import { clientAddress } from "@/lib/api/client-address";
import { platform } from "@/lib/pipeline/platform";
import { authenticateClient } from "@/lib/services/oauth/authenticate-client";
import { exchangeCode } from "@/lib/services/oauth/exchange-code";
import { OAuthError } from "@/lib/services/oauth/oauth-error";
import { refreshTokens } from "@/lib/services/oauth/refresh-tokens";
import { registerClient } from "@/lib/services/oauth/register-client";
import { revokeOAuthToken } from "@/lib/services/oauth/revoke-oauth-token";
import { CORS_HEADERS } from "./cors";
import { clientCredentials, field, readForm } from "./form";
import { CONSENT_PATH } from "./metadata";
import { NO_STORE, oauthFailure, oauthJson } from "./responses";

const REGISTRATION_MAX_BYTES = 16 * 1024;

/**
 * GET /api/oauth/authorize: the request goes on, as it is, to the consent page, which signs the member in
 * and checks it (the client is resolved only for a signed-in member, so nobody else can make this server
 * fetch client metadata documents).
 */
export async function authorizationEndpoint(request: Request): Promise<Response> {
  const { search } = new URL(request.url);
  return new Response(null, { status: 302, headers: { location: `${CONSENT_PATH}${search}`, ...NO_STORE } });
}

/** POST /api/oauth/token: for stored clients only (authenticateClient never fetches a metadata document). */
export async function tokenEndpoint(request: Request): Promise<Response> {
  try {
    const ctx = await platform();
    const form = await readForm(request);
    const grantType = field(form, "grant_type");
    if (grantType !== "authorization_code" && grantType !== "refresh_token") {
      throw new OAuthError(
        grantType ? "unsupported_grant_type" : "invalid_request",
        grantType ? `grant_type '${grantType}' is not supported` : "grant_type is missing",
      );
    }
    const client = await authenticateClient({ ctx, input: clientCredentials(request, form) });
    const resource = field(form, "resource");
    if (grantType === "authorization_code") {
      const code = field(form, "code");
      if (!code) throw new OAuthError("invalid_request", "code is missing");
      const exchange = {
        code,
        codeVerifier: field(form, "code_verifier"),
        redirectUri: field(form, "redirect_uri"),
        resource,
      };
      return oauthJson(await exchangeCode({ ctx, input: { client, exchange } }));
    }
    const refreshToken = field(form, "refresh_token");
    if (!refreshToken) throw new OAuthError("invalid_request", "refresh_token is missing");
    const refresh = { refreshToken, scope: field(form, "scope"), resource };
    return oauthJson(await refreshTokens({ ctx, input: { client, refresh } }));
  } catch (error) {
    return oauthFailure(error);
  }
}

/**
 * POST /api/oauth/register: open registration, within the verb's limits per client address (without one,
 * refused but on a local server).
 */
export async function registrationEndpoint(request: Request): Promise<Response> {
  try {
    const ctx = await platform();
    const metadata = await readJsonBody(request, REGISTRATION_MAX_BYTES);
    const address = clientAddress(request.headers, ctx.env);
    return oauthJson(await registerClient({ ctx, input: { metadata, address } }), 201);
  } catch (error) {
    return oauthFailure(error);
  }
}

/** POST /api/oauth/revoke: 200 whether or not the token was known (RFC 7009 §2.2). */
export async function revocationEndpoint(request: Request): Promise<Response> {
  try {
    const ctx = await platform();
    const form = await readForm(request);
    const client = await authenticateClient({ ctx, input: clientCredentials(request, form) });
    const token = field(form, "token");
    if (!token) throw new OAuthError("invalid_request", "token is missing");
    await revokeOAuthToken({ ctx, input: { client, token } });
    return new Response(null, { status: 200, headers: { ...NO_STORE, ...CORS_HEADERS } });
  } catch (error) {
    return oauthFailure(error);
  }
}
