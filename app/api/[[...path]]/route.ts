import { unknownPathRoute } from "@/lib/api/route-methods";

export const dynamic = "force-dynamic";

/** Every /api path no other route serves: a JSON 404 for API clients instead of the HTML not-found page. */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = unknownPathRoute();
