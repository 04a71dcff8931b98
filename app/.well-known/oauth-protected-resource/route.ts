/** RFC 9728's root location, which clients try when the path-suffixed one is missing: /api/mcp's metadata. */
export { DELETE, GET, OPTIONS, PATCH, POST, PUT } from "@/app/api/mcp/oauth-protected-resource/route";

export const dynamic = "force-dynamic";
