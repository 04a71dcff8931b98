/**
 * MCP authorization, the protected resource's side (RFC 9728): a 401 names this resource's metadata
 * document and the scopes to ask for, and the document names Searchmux itself as the authorization server
 * (lib/api/oauth). OAuth access tokens are bound to the resource they were issued for (RFC 8707): this
 * endpoint's canonical URL, `<public origin>/api/mcp`.
 */

import { publicOrigin } from "@/lib/api/oauth/metadata";
import type { TokenRefusal } from "@/lib/api/with-token";
import { DEFAULT_TOKEN_SCOPES } from "@/lib/pipeline/context";

const MCP_PATH = "/api/mcp";
/** RFC 9728 §3.1: the well-known location, with the resource's path appended. */
const RESOURCE_METADATA_PATH = `/.well-known/oauth-protected-resource${MCP_PATH}`;

/** What an MCP client asks for: MCP itself and every tool's scope (never admin). */
const MCP_SCOPES = ["mcp", ...DEFAULT_TOKEN_SCOPES.filter((scope) => scope !== "mcp")].join(" ");

/** The MCP endpoint's canonical URL on the site at `origin`: what OAuth access tokens are bound to. */
export const mcpResourceOf = (origin: string) => `${origin}${MCP_PATH}`;

export const mcpResource = (request: Request, publicUrl: string | undefined) =>
  mcpResourceOf(publicOrigin(request, publicUrl));

/** The challenge of a refused MCP request (RFC 6750 §3 with RFC 9728 §5.1's resource_metadata). */
export function bearerChallenge(
  request: Request,
  publicUrl: string | undefined,
  { error, scope }: TokenRefusal,
): string {
  const params = [
    'realm="searchmux"',
    `resource_metadata="${publicOrigin(request, publicUrl)}${RESOURCE_METADATA_PATH}"`,
    `scope="${error === "insufficient_scope" && scope ? scope : MCP_SCOPES}"`,
  ];
  if (error) params.push(`error="${error}"`);
  return `Bearer ${params.join(", ")}`;
}

export function resourceMetadata(request: Request, publicUrl: string | undefined) {
  const origin = publicOrigin(request, publicUrl);
  return {
    resource: mcpResourceOf(origin),
    authorization_servers: [origin],
    scopes_supported: MCP_SCOPES.split(" "),
    bearer_methods_supported: ["header"],
    resource_name: "Searchmux MCP",
    resource_documentation: `${origin}/`,
  };
}
