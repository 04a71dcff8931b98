import { mcpMethodNotAllowed, mcpPost } from "@/lib/mcp/http";

/**
 * MCP for clients that accept only a URL: the token is the last path segment. It needs the `mcp`
 * scope like the header form; the path is never logged by our code.
 */
export const POST = mcpPost<{ token: string }>("/api/mcp/t/[token]", (_request, params) => params.token);
export const GET = mcpMethodNotAllowed;
export const DELETE = mcpMethodNotAllowed;
