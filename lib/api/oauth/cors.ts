/**
 * The OAuth and discovery endpoints are open to browser-based MCP clients (the MCP Inspector, web apps):
 * CORS for any origin, without credentials, since no cookie is ever read on them.
 */
import { routeMethods } from "@/lib/api/route-methods";

export const CORS_HEADERS = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, POST, OPTIONS",
  "access-control-allow-headers": "authorization, content-type, mcp-protocol-version",
  "access-control-max-age": "86400",
} as const;

export function withCors(response: Response): Response {
  for (const [name, value] of Object.entries(CORS_HEADERS)) response.headers.set(name, value);
  return response;
}

/** A route file's exports (routeMethods) whose OPTIONS also answers a CORS preflight. */
export function corsRouteMethods<const H extends Parameters<typeof routeMethods>[0]>(handlers: H) {
  const exports = routeMethods(handlers);
  const preflight = async (request: Request) => withCors(await exports.OPTIONS(request));
  return { ...exports, OPTIONS: preflight };
}
