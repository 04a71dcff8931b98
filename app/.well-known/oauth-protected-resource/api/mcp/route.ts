/** RFC 9728's standard location for the metadata of the protected resource /api/mcp. */
export { DELETE, GET, OPTIONS, PATCH, POST, PUT } from "@/app/api/mcp/oauth-protected-resource/route";

export const dynamic = "force-dynamic";
