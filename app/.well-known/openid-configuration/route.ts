/** The OpenID Connect discovery location some MCP clients try first: the same RFC 8414 document. */
export { DELETE, GET, OPTIONS, PATCH, POST, PUT } from "@/app/.well-known/oauth-authorization-server/route";

export const dynamic = "force-dynamic";
