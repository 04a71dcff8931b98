/**
 * MCP revision 2026-07-28 (stateless, each request carrying its own `_meta` envelope) on the v2 SDK
 * (`@modelcontextprotocol/server`): the registration calls of what build-server.ts offers, on a server built
 * for each request's tenant. That revision has no tasks in its core, so a job tool (research) is a plain call
 * there: it waits for the job, with progress heartbeats. Requests of earlier revisions never reach it
 * (http.ts routes them to revision-2025.ts).
 */
import {
  createMcpHandler,
  type McpHttpHandler,
  type McpRequestContext,
  McpServer,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { z } from "zod";
import { MAX_BODY_BYTES } from "@/lib/api/body";
import type { TenantContext } from "@/lib/pipeline/context";
import { buildServer } from "./build-server";
import { withCachedJsonSchema } from "./cached-json-schema";
import type { CallExtra, Revision, ToolConfig } from "./offered";
import { SERVER_INFO, serverOptions } from "./server-options";

function callExtraOf({ mcpReq }: ServerContext): CallExtra {
  return { signal: mcpReq.signal, _meta: mcpReq._meta, sendNotification: (n) => mcpReq.notify(n) };
}

const cachedConfigs = new WeakMap<ToolConfig, ToolConfig>();

/** A tool's config with JSON Schemas converted once per process (cached-json-schema.ts says why). */
function withCachedSchemas(config: ToolConfig): ToolConfig {
  let cached = cachedConfigs.get(config);
  if (!cached) {
    cached = { ...config, inputSchema: withCachedJsonSchema(config.inputSchema) };
    cachedConfigs.set(config, cached);
  }
  return cached;
}

const revision20260728: Revision<McpServer> = {
  // No tasks in this revision's core (above).
  newServer: (instructions) => new McpServer(SERVER_INFO, serverOptions(instructions)),
  registerTool: (server, { name, config, call }) =>
    server.registerTool(name, withCachedSchemas(config), (args, context) => call(args, callExtraOf(context))),
  registerResource: (server, { name, uri, config, read }) => server.registerResource(name, uri, config, read),
  registerPrompt: (server, { name, config, args, get }) =>
    server.registerPrompt(name, { ...config, argsSchema: z.object(args) }, (parsed) => get(parsed)),
};

/**
 * The tenant as it travels to the per-request factory in `authInfo.extra` (the SDK passes authInfo through
 * untouched and types `extra` as unknown values): an instance of this class, so reading it back checks what
 * it is. The token itself is never handed to the SDK.
 */
class RequestTenant {
  constructor(readonly ctx: TenantContext) {}
}

export function authInfoFor(ctx: TenantContext) {
  return { token: "", clientId: "", scopes: [...ctx.scopes], extra: { tenant: new RequestTenant(ctx) } };
}

function tenantOf({ authInfo }: McpRequestContext): TenantContext {
  const tenant = authInfo?.extra?.tenant;
  if (!(tenant instanceof RequestTenant)) {
    throw new Error("an MCP request reached the 2026-07-28 server without its tenant");
  }
  return tenant.ctx;
}

let handler: McpHttpHandler | undefined;

/**
 * One handler per process: it holds no tenant state (each request gets its own server), only the revision's
 * request validation. `legacy: "reject"` because http.ts sends 2025 traffic to revision-2025.ts itself.
 */
export function mcpHandler(): McpHttpHandler {
  handler ??= createMcpHandler(
    (context) => buildServer(tenantOf(context), revision20260728, { tasks: false }),
    {
      legacy: "reject",
      maxRequestBodySize: MAX_BODY_BYTES,
    },
  );
  return handler;
}
