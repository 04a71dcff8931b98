import { routeMethods } from "@/lib/api/route-methods";
import { withToken } from "@/lib/api/with-token";
import { listDeliveries } from "@/lib/services/webhooks/list-deliveries";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  /** GET /api/v1/webhooks/<id>/deliveries?limit= — the webhook's delivery log, newest first. */
  GET: withToken<{ id: string }>(
    async (request, { ctx, params }) =>
      Response.json(
        await listDeliveries({
          ctx,
          input: { id: params.id, limit: new URL(request.url).searchParams.get("limit") ?? undefined },
        }),
      ),
    { route: "/api/v1/webhooks/[id]/deliveries", scope: "admin" },
  ),
});
