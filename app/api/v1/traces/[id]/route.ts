import { routeMethods } from "@/lib/api/route-methods";
import { withToken } from "@/lib/api/with-token";
import { getTrace } from "@/lib/services/traces/get-trace";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  /** GET /api/v1/traces/<id> — one trace with its spans. */
  GET: withToken<{ id: string }>(
    async (_request, { ctx, params }) => Response.json(await getTrace({ ctx, input: { id: params.id } })),
    { route: "/api/v1/traces/[id]" },
  ),
});
