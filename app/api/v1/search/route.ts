import { readJsonBody } from "@/lib/api/body";
import { toSearchResponse } from "@/lib/api/responses";
import { withToken } from "@/lib/api/with-token";
import { webSearch } from "@/lib/services/search/web-search";

export const dynamic = "force-dynamic";

/** POST /api/v1/search — fused web search over the tenant's providers. */
export const POST = withToken(
  async (request, { ctx }) =>
    Response.json(
      toSearchResponse(await webSearch({ ctx, input: await readJsonBody(request), signal: request.signal })),
    ),
  { route: "/api/v1/search", scope: "search" },
);
