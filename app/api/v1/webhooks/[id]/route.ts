import { routeMethods } from "@/lib/api/route-methods";
import { withToken } from "@/lib/api/with-token";
import { deleteWebhook } from "@/lib/services/webhooks/delete-webhook";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  /** DELETE /api/v1/webhooks/<id> — deletes the webhook and its delivery log. */
  DELETE: withToken<{ id: string }>(
    async (_request, { ctx, params }) =>
      Response.json(await deleteWebhook({ ctx, input: { id: params.id } })),
    { route: "/api/v1/webhooks/[id]", scope: "admin" },
  ),
});
