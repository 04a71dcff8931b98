import { config } from "@/lib/config";
import { resourceMetadata } from "@/lib/mcp/resource-metadata";

export const dynamic = "force-dynamic";

/** RFC 9728 protected resource metadata for /api/mcp; 401s point here via WWW-Authenticate. */
export function GET(request: Request) {
  return Response.json(resourceMetadata(request, config().auth.url), {
    headers: { "cache-control": "public, max-age=3600" },
  });
}
