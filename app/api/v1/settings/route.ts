import { readJsonBody } from "@/lib/api/body";
import { routeMethods } from "@/lib/api/route-methods";
import { withToken } from "@/lib/api/with-token";
import { updateWorkspaceSettings, workspaceSettings } from "@/lib/services/tenants/workspace-settings";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  /** GET /api/v1/settings — the workspace's settings. */
  GET: withToken(async (_request, { ctx }) => Response.json(await workspaceSettings({ ctx })), {
    route: "/api/v1/settings",
    scope: "admin",
  }),
  /** PATCH /api/v1/settings — change the fields given (an audit row per change). */
  PATCH: withToken(
    async (request, { ctx }) =>
      Response.json(await updateWorkspaceSettings({ ctx, input: await readJsonBody(request) })),
    { route: "/api/v1/settings", scope: "admin" },
  ),
});
