import { corsRouteMethods } from "@/lib/api/oauth/cors";
import { tokenEndpoint } from "@/lib/api/oauth/endpoints";

/** OAuth token endpoint: code exchange and refresh (lib/api/oauth/endpoints.ts). */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = corsRouteMethods({ POST: tokenEndpoint });
