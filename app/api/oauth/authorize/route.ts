import { authorizationEndpoint } from "@/lib/api/oauth/endpoints";
import { routeMethods } from "@/lib/api/route-methods";

export const dynamic = "force-dynamic";

/** OAuth authorization endpoint: on to the consent page (lib/api/oauth/endpoints.ts). */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({ GET: authorizationEndpoint });
