import { routeMethods } from "@/lib/api/route-methods";
import { mcpMethodNotAllowed, mcpPost } from "@/lib/mcp/http";

/** Any tool, grounded search being the longest (see app/api/v1/[tool]/route.ts). */
export const maxDuration = 300;

/** MCP (Streamable HTTP, stateless) with `Authorization: Bearer <token>`; see lib/mcp/http.ts. */
export const { POST, PUT, PATCH, OPTIONS } = routeMethods({ POST: mcpPost("/api/mcp") });
/** MCP's own 405 (JSON-RPC): no standalone SSE stream and no sessions to end on a stateless server. */
export const GET = mcpMethodNotAllowed;
export const DELETE = mcpMethodNotAllowed;
