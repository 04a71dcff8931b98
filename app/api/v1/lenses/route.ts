import { readJsonBody } from "@/lib/api/body";
import { routeMethods } from "@/lib/api/route-methods";
import { withToken } from "@/lib/api/with-token";
import { deleteLens } from "@/lib/services/lenses/delete-lens";
import { listLenses } from "@/lib/services/lenses/list-lenses";
import { setLens } from "@/lib/services/lenses/set-lens";
import { toLensResponse } from "@/lib/tools/responses";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  /** GET /api/v1/lenses — the workspace's lenses and the built-in ones (any token). */
  GET: withToken(
    async (_request, { ctx }) => Response.json({ lenses: (await listLenses({ ctx })).map(toLensResponse) }),
    { route: "/api/v1/lenses" },
  ),
  /** PUT /api/v1/lenses — create or replace a lens: `{name, domains, description?, time_range?, region?, safesearch?}`. */
  PUT: withToken(
    async (request, { ctx }) =>
      Response.json(toLensResponse(await setLens({ ctx, input: await readJsonBody(request) }))),
    { route: "/api/v1/lenses", scope: "admin" },
  ),
  /** DELETE /api/v1/lenses?name=… */
  DELETE: withToken(
    async (request, { ctx }) =>
      Response.json(
        await deleteLens({ ctx, input: { name: new URL(request.url).searchParams.get("name") ?? "" } }),
      ),
    { route: "/api/v1/lenses", scope: "admin" },
  ),
});
