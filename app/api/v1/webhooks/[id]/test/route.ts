import { afterResponse } from "@/lib/api/after-response";
import { routeMethods } from "@/lib/api/route-methods";
import { withToken } from "@/lib/api/with-token";
import { deliverWebhooks } from "@/lib/services/webhooks/deliver-webhooks";
import { testWebhook } from "@/lib/services/webhooks/test-webhook";

export const dynamic = "force-dynamic";
export const maxDuration = 60;

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  /** POST /api/v1/webhooks/<id>/test — queues a `webhook.test` event (202) and sends it right after. */
  POST: withToken<{ id: string }>(
    async (_request, { ctx, params }) => {
      const delivery = await testWebhook({ ctx, input: { id: params.id } });
      afterResponse(async () => {
        await deliverWebhooks(ctx);
      });
      return Response.json(delivery, { status: 202 });
    },
    { route: "/api/v1/webhooks/[id]/test", scope: "admin" },
  ),
});
