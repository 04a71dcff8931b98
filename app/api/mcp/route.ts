import { mcpMethodNotAllowed, mcpPost } from "@/lib/mcp/http";

/** MCP (Streamable HTTP, stateless) with `Authorization: Bearer <token>`; see lib/mcp/http.ts. */
export const POST = mcpPost("/api/mcp");
export const GET = mcpMethodNotAllowed;
export const DELETE = mcpMethodNotAllowed;
