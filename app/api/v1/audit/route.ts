import { routeMethods } from "@/lib/api/route-methods";
import { withToken } from "@/lib/api/with-token";
import { listAudit } from "@/lib/services/audit/list-audit";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  /** GET /api/v1/audit?limit=&cursor=&action=&user_id=&token_id=&since= — newest first; admin tokens only. */
  GET: withToken(
    async (request, { ctx }) =>
      Response.json(await listAudit({ ctx, input: Object.fromEntries(new URL(request.url).searchParams) })),
    { route: "/api/v1/audit" },
  ),
});
