import { routeMethods } from "@/lib/api/route-methods";
import { withToken } from "@/lib/api/with-token";
import { usageHistory } from "@/lib/services/usage/usage-history";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  /** GET /api/v1/usage/history?days=30 — requests, spend, calls and cache hits per UTC day. Any valid token. */
  GET: withToken(
    async (request, { ctx }) => {
      const days = new URL(request.url).searchParams.get("days");
      return Response.json(await usageHistory({ ctx, input: days === null ? {} : { days: Number(days) } }));
    },
    { route: "/api/v1/usage/history" },
  ),
});
