/**
 * Discovery: Searchmux is its own authorization server, with the site's public origin as its issuer
 * (RFC 8414 metadata, served at /.well-known/oauth-authorization-server and, for clients that look there
 * first, /.well-known/openid-configuration), and the MCP endpoint its protected resource.
 */
import { CONNECTED_APP_SCOPES } from "@/lib/pipeline/context";
import { TOKEN_ENDPOINT_AUTH_METHODS } from "@/lib/services/oauth/client-metadata";

const OAUTH_ENDPOINTS = {
  authorization: "/api/oauth/authorize",
  token: "/api/oauth/token",
  registration: "/api/oauth/register",
  revocation: "/api/oauth/revoke",
} as const;

/** Where the authorization endpoint sends the browser: the signed-in member's consent. */
export const CONSENT_PATH = "/oauth/consent";

/** The origin clients reach us on: AUTH_URL's when configured (behind proxies), else the request's. */
export const publicOrigin = (request: Request, publicUrl: string | undefined) =>
  new URL(publicUrl ?? request.url).origin;

/** RFC 8414 §2 metadata of the authorization server whose issuer identifier is `issuer`. */
export function authorizationServerMetadata(issuer: string) {
  const at = (path: string) => `${issuer}${path}`;
  return {
    issuer,
    authorization_endpoint: at(OAUTH_ENDPOINTS.authorization),
    token_endpoint: at(OAUTH_ENDPOINTS.token),
    registration_endpoint: at(OAUTH_ENDPOINTS.registration),
    revocation_endpoint: at(OAUTH_ENDPOINTS.revocation),
    scopes_supported: [...CONNECTED_APP_SCOPES],
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: ["authorization_code", "refresh_token"],
    code_challenge_methods_supported: ["S256"],
    token_endpoint_auth_methods_supported: [...TOKEN_ENDPOINT_AUTH_METHODS],
    revocation_endpoint_auth_methods_supported: [...TOKEN_ENDPOINT_AUTH_METHODS],
    client_id_metadata_document_supported: true,
    authorization_response_iss_parameter_supported: true,
    service_documentation: at("/"),
  };
}
