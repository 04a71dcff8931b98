import { corsRouteMethods, withCors } from "@/lib/api/oauth/cors";
import { authorizationServerMetadata, publicOrigin } from "@/lib/api/oauth/metadata";
import { config } from "@/lib/config";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = corsRouteMethods({
  /** RFC 8414 authorization server metadata; the issuer is the site's public origin. */
  async GET(request: Request) {
    const issuer = publicOrigin(request, config().auth.url);
    return withCors(
      Response.json(authorizationServerMetadata(issuer), {
        headers: { "cache-control": "public, max-age=3600" },
      }),
    );
  },
});
