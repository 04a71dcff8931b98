import { corsRouteMethods } from "@/lib/api/oauth/cors";
import { revocationEndpoint } from "@/lib/api/oauth/endpoints";

/** OAuth token revocation, RFC 7009 (lib/api/oauth/endpoints.ts). */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = corsRouteMethods({ POST: revocationEndpoint });
