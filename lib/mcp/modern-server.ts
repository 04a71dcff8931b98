/**
 * MCP revision 2026-07-28 (stateless, each request carrying its own `_meta` envelope) on the official v2
 * server SDK: the same tools, instructions, limits and resource as the 2025 server (server.ts), built fresh
 * for each request's tenant. Requests of earlier revisions never reach it (http.ts routes them to v1).
 */
import {
  createMcpHandler,
  type McpHttpHandler,
  type McpRequestContext,
  McpServer,
} from "@modelcontextprotocol/server";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/server/validators/ajv";
import { MAX_BODY_BYTES } from "@/lib/api/body";
import type { TenantContext } from "@/lib/pipeline/context";
import { INSTRUCTIONS, MAX_TOOL_INPUT_ELEMENTS, providersResource, SERVER_INFO } from "./server";
import { toolsForScopes } from "./tools";

let validator: AjvJsonSchemaValidator | undefined;

export function createModernMcpServer(ctx: TenantContext): McpServer {
  validator ??= new AjvJsonSchemaValidator();
  const server = new McpServer(SERVER_INFO, {
    instructions: INSTRUCTIONS,
    maxToolInputElements: MAX_TOOL_INPUT_ELEMENTS,
    jsonSchemaValidator: validator,
  });
  for (const tool of toolsForScopes(ctx.scopes)) tool.registerModern(server, ctx);
  const providers = providersResource(ctx);
  server.registerResource(providers.name, providers.uri, providers.config, providers.read);
  return server;
}

/**
 * The tenant of a request travels to the factory in `authInfo.extra` (the SDK passes authInfo through
 * untouched); the token itself is never handed to the SDK.
 */
export function modernAuthInfo(ctx: TenantContext) {
  return { token: "", clientId: "", scopes: [...ctx.scopes], extra: { tenant: ctx } };
}

function tenantOf({ authInfo }: McpRequestContext): TenantContext {
  const tenant = authInfo?.extra?.tenant;
  if (!tenant) throw new Error("an MCP request reached the 2026-07-28 server without its tenant");
  return tenant as TenantContext;
}

let handler: McpHttpHandler | undefined;

/**
 * One handler per process: it holds no tenant state (each request gets its own server), only the
 * revision's request validation. `legacy: "reject"` because http.ts sends 2025 traffic to v1 itself.
 */
export function modernMcpHandler(): McpHttpHandler {
  handler ??= createMcpHandler((context) => createModernMcpServer(tenantOf(context)), {
    legacy: "reject",
    maxRequestBodySize: MAX_BODY_BYTES,
  });
  return handler;
}
