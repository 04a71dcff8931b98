import { corsRouteMethods } from "@/lib/api/oauth/cors";
import { registrationEndpoint } from "@/lib/api/oauth/endpoints";

/** OAuth Dynamic Client Registration, RFC 7591 (lib/api/oauth/endpoints.ts). */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = corsRouteMethods({ POST: registrationEndpoint });
