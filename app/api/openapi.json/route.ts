import { openApiDocument } from "@/lib/api/openapi";

/** GET /api/openapi.json — generated from the verbs' zod schemas (lib/api/openapi.ts). */
export function GET() {
  return Response.json(openApiDocument(), { headers: { "cache-control": "public, max-age=300" } });
}
