import { corsRouteMethods, withCors } from "@/lib/api/oauth/cors";
import { config } from "@/lib/config";
import { resourceMetadata } from "@/lib/mcp/resource-metadata";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = corsRouteMethods({
  /** RFC 9728 protected resource metadata for /api/mcp; 401s point here via WWW-Authenticate. */
  async GET(request: Request) {
    return withCors(
      Response.json(resourceMetadata(request, config().auth.url), {
        headers: { "cache-control": "public, max-age=3600" },
      }),
    );
  },
});
