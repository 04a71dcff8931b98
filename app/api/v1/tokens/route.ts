import { readJsonBody } from "@/lib/api/body";
import { routeMethods } from "@/lib/api/route-methods";
import { withToken } from "@/lib/api/with-token";
import { createToken } from "@/lib/services/tokens/create-token";
import { listTokens } from "@/lib/services/tokens/list-tokens";
import { revokeToken } from "@/lib/services/tokens/revoke-token";
import { profileRules } from "@/lib/tools/profile";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  /** GET /api/v1/tokens — the tenant's tokens (never the secrets). */
  GET: withToken(async (_request, { ctx }) => Response.json({ tokens: await listTokens({ ctx }) }), {
    route: "/api/v1/tokens",
    scope: "admin",
  }),
  /** POST /api/v1/tokens — `{name, scopes?, expiresAt?, profile?}`; the token is in the response once. */
  POST: withToken(
    async (request, { ctx }) =>
      Response.json(await createToken({ ctx, input: await readJsonBody(request), profiles: profileRules }), {
        status: 201,
      }),
    { route: "/api/v1/tokens", scope: "admin" },
  ),
  /** DELETE /api/v1/tokens?id=… — revoke; refused everywhere at once. */
  DELETE: withToken(
    async (request, { ctx }) =>
      Response.json(
        await revokeToken({ ctx, input: { id: new URL(request.url).searchParams.get("id") ?? "" } }),
      ),
    { route: "/api/v1/tokens", scope: "admin" },
  ),
});
