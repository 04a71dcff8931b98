import { readJsonBody } from "@/lib/api/body";
import { routeMethods } from "@/lib/api/route-methods";
import { withToken } from "@/lib/api/with-token";
import { deleteBudget } from "@/lib/services/budgets/delete-budget";
import { listBudgets } from "@/lib/services/budgets/list-budgets";
import { setBudget } from "@/lib/services/budgets/set-budget";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  /** GET /api/v1/budgets — the tenant's budgets (ids and soft limits too) with used, remaining and reset time. */
  GET: withToken(
    async (_request, { ctx }) => Response.json({ budgets: (await listBudgets({ ctx })).budgets }),
    { route: "/api/v1/budgets", scope: "admin" },
  ),
  /** PUT /api/v1/budgets — create or replace the budget for (provider, metric, period). */
  PUT: withToken(
    async (request, { ctx }) => Response.json(await setBudget({ ctx, input: await readJsonBody(request) })),
    { route: "/api/v1/budgets", scope: "admin" },
  ),
  /** DELETE /api/v1/budgets?id=… */
  DELETE: withToken(
    async (request, { ctx }) =>
      Response.json(
        await deleteBudget({ ctx, input: { id: new URL(request.url).searchParams.get("id") ?? "" } }),
      ),
    { route: "/api/v1/budgets", scope: "admin" },
  ),
});
