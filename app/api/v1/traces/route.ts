import { routeMethods } from "@/lib/api/route-methods";
import { withToken } from "@/lib/api/with-token";
import { listTraces } from "@/lib/services/traces/list-traces";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  /**
   * GET /api/v1/traces?limit=&cursor=&tool=&status=&surface=&provider=&since=&q= — newest first; admins see
   * all, other tokens their own.
   */
  GET: withToken(
    async (request, { ctx }) =>
      Response.json(await listTraces({ ctx, input: Object.fromEntries(new URL(request.url).searchParams) })),
    { route: "/api/v1/traces" },
  ),
});
