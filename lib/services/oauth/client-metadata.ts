/**
 * Client metadata (RFC 7591 §2) as Searchmux accepts it, from a registration request or a Client ID
 * Metadata Document: redirect URIs (redirect-uris.ts), a name to show on the consent page, the
 * authorization code grant (with refresh tokens) and nothing else. Fields Searchmux does not use are
 * ignored, as RFC 7591 asks.
 */
import { z } from "zod";
import { OAuthError } from "./oauth-error";
import { MAX_REDIRECT_URIS, MAX_URI_LENGTH } from "./policy";
import { redirectUriRefusal } from "./redirect-uris";

export const TOKEN_ENDPOINT_AUTH_METHODS = ["none", "client_secret_basic", "client_secret_post"] as const;
export type TokenEndpointAuthMethod = (typeof TOKEN_ENDPOINT_AUTH_METHODS)[number];
const GRANT_TYPES = ["authorization_code", "refresh_token"] as const;

const clientMetadataSchema = z.object({
  redirect_uris: z.array(z.string()).min(1).max(MAX_REDIRECT_URIS),
  client_name: z.string().trim().min(1).max(200).optional(),
  client_uri: z.string().max(MAX_URI_LENGTH).optional(),
  token_endpoint_auth_method: z.string().optional(),
  grant_types: z.array(z.string()).max(10).optional(),
  response_types: z.array(z.string()).max(10).optional(),
});

export interface ClientMetadata {
  redirectUris: string[];
  name: string | undefined;
  clientUri: string | undefined;
  tokenEndpointAuthMethod: TokenEndpointAuthMethod;
  grantTypes: string[];
}

const firstIssue = (error: z.ZodError) => {
  const issue = error.issues[0];
  return issue ? `${issue.path.join(".") || "metadata"}: ${issue.message}` : "invalid client metadata";
};

/**
 * The metadata Searchmux keeps of `raw`, or an OAuthError (`invalid_redirect_uri`, `invalid_client_metadata`).
 * `defaultAuthMethod`: the token endpoint authentication when `raw` names none (RFC 7591: a client secret).
 */
export function parseClientMetadata(
  raw: unknown,
  defaultAuthMethod: TokenEndpointAuthMethod = "client_secret_basic",
): ClientMetadata {
  const parsed = clientMetadataSchema.safeParse(raw);
  if (!parsed.success) {
    const onRedirects = parsed.error.issues.some((issue) => issue.path[0] === "redirect_uris");
    throw new OAuthError(
      onRedirects ? "invalid_redirect_uri" : "invalid_client_metadata",
      firstIssue(parsed.error),
    );
  }
  const metadata = parsed.data;
  for (const uri of metadata.redirect_uris) {
    const refusal = redirectUriRefusal(uri);
    if (refusal) throw new OAuthError("invalid_redirect_uri", refusal);
  }
  const method = metadata.token_endpoint_auth_method ?? defaultAuthMethod;
  if (!TOKEN_ENDPOINT_AUTH_METHODS.includes(method as TokenEndpointAuthMethod)) {
    throw new OAuthError(
      "invalid_client_metadata",
      `token_endpoint_auth_method must be one of ${TOKEN_ENDPOINT_AUTH_METHODS.join(", ")}`,
    );
  }
  const grantTypes = metadata.grant_types ?? ["authorization_code"];
  const unsupportedGrant = grantTypes.find((grant) => !(GRANT_TYPES as readonly string[]).includes(grant));
  if (unsupportedGrant) {
    throw new OAuthError("invalid_client_metadata", `grant type '${unsupportedGrant}' is not supported`);
  }
  if ((metadata.response_types ?? ["code"]).some((type) => type !== "code")) {
    throw new OAuthError("invalid_client_metadata", "the only response type is 'code'");
  }
  if (metadata.client_uri !== undefined && !/^https:\/\//i.test(metadata.client_uri)) {
    throw new OAuthError("invalid_client_metadata", "client_uri must be an https URL");
  }
  return {
    redirectUris: [...new Set(metadata.redirect_uris)],
    name: metadata.client_name,
    clientUri: metadata.client_uri,
    tokenEndpointAuthMethod: method as TokenEndpointAuthMethod,
    grantTypes,
  };
}
