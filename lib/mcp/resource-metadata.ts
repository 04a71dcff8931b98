/**
 * MCP authorization (RFC 9728 protected resource metadata): a 401 points clients at a document that
 * describes this resource. Searchmux tokens are issued in the dashboard or by the CLI, so the document
 * names no authorization server; clients that cannot do OAuth use the Bearer token they were given.
 */
import { SCOPES } from "@/lib/services/context";

export const RESOURCE_METADATA_PATH = "/api/mcp/oauth-protected-resource";

/** The origin clients reach us on: AUTH_URL when configured (behind proxies), else the request's. */
const publicOrigin = (request: Request, publicUrl: string | undefined) =>
  new URL(publicUrl ?? request.url).origin;

export function bearerChallenge(request: Request, publicUrl: string | undefined): string {
  return `Bearer realm="searchmux", resource_metadata="${publicOrigin(request, publicUrl)}${RESOURCE_METADATA_PATH}"`;
}

export function resourceMetadata(request: Request, publicUrl: string | undefined) {
  const origin = publicOrigin(request, publicUrl);
  return {
    resource: `${origin}/api/mcp`,
    resource_name: "Searchmux MCP",
    resource_documentation: `${origin}/`,
    bearer_methods_supported: ["header"],
    scopes_supported: [...SCOPES],
  };
}
