import { apiServerUrl, openApiDocument } from "@/lib/api/openapi";
import { routeMethods } from "@/lib/api/route-methods";
import { config } from "@/lib/config";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  /** GET /api/openapi.json — generated from the tool table and the verbs' zod schemas (lib/api/openapi.ts). */
  async GET(request: Request) {
    const { auth, allowedHosts } = config();
    return Response.json(openApiDocument(apiServerUrl(request, { publicUrl: auth.url, allowedHosts })), {
      // The server URL may come from the Host header.
      headers: { "cache-control": "public, max-age=300", vary: "host" },
    });
  },
});
