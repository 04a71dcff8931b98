import { routeMethods } from "@/lib/api/route-methods";
import { mcpMethodNotAllowed, mcpPost } from "@/lib/mcp/http";

/** Any tool, grounded search being the longest (see app/api/v1/[tool]/route.ts). */
export const maxDuration = 300;

/**
 * MCP for clients that accept only a URL: the token is the last path segment. It needs the `mcp`
 * scope like the header form; the path is never logged by our code.
 */
export const { POST, PUT, PATCH, OPTIONS } = routeMethods({
  POST: mcpPost<{ token: string }>("/api/mcp/t/[token]", (_request, params) => params.token),
});
/** MCP's own 405 (JSON-RPC), as on /api/mcp. */
export const GET = mcpMethodNotAllowed;
export const DELETE = mcpMethodNotAllowed;
