import { readJsonBody } from "@/lib/api/body";
import { routeMethods } from "@/lib/api/route-methods";
import { withToken } from "@/lib/api/with-token";
import { createWebhook } from "@/lib/services/webhooks/create-webhook";
import { listWebhooks } from "@/lib/services/webhooks/list-webhooks";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  /** GET /api/v1/webhooks — the workspace's webhooks (never their secrets). */
  GET: withToken(async (_request, { ctx }) => Response.json(await listWebhooks({ ctx })), {
    route: "/api/v1/webhooks",
    scope: "admin",
  }),
  /** POST /api/v1/webhooks — registers a webhook `{url, events}`; the answer carries its secret, once. */
  POST: withToken(
    async (request, { ctx }) =>
      Response.json(await createWebhook({ ctx, input: await readJsonBody(request) }), { status: 201 }),
    { route: "/api/v1/webhooks", scope: "admin" },
  ),
});
