import { readJsonBody } from "@/lib/api/body";
import { routeMethods } from "@/lib/api/route-methods";
import { withToken } from "@/lib/api/with-token";
import { deleteKey } from "@/lib/services/keys/delete-key";
import { listKeys } from "@/lib/services/keys/list-keys";
import { setKey } from "@/lib/services/keys/set-key";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  /** GET /api/v1/keys — stored provider keys (last 4 characters only; the workspace model's host, model, price). */
  GET: withToken(async (_request, { ctx }) => Response.json({ keys: await listKeys({ ctx }) }), {
    route: "/api/v1/keys",
    scope: "admin",
  }),
  /** PUT /api/v1/keys — store or replace a provider key: `{provider, key}`, and for workspace_llm its settings. */
  PUT: withToken(
    async (request, { ctx }) => Response.json(await setKey({ ctx, input: await readJsonBody(request) })),
    { route: "/api/v1/keys", scope: "admin" },
  ),
  /** DELETE /api/v1/keys?provider=… */
  DELETE: withToken(
    async (request, { ctx }) =>
      Response.json(
        await deleteKey({
          ctx,
          input: { provider: new URL(request.url).searchParams.get("provider") ?? "" },
        }),
      ),
    { route: "/api/v1/keys", scope: "admin" },
  ),
});
