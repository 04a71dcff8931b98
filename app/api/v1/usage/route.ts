import { withToken } from "@/lib/api/with-token";
import { budgetStatus } from "@/lib/services/budgets/budget-status";

export const dynamic = "force-dynamic";

/**
 * GET /api/v1/usage — what each budget leaves, per-provider usage and free tiers. Any valid token; budget ids,
 * soft limits and alerts only with the admin scope.
 */
export const GET = withToken(async (_request, { ctx }) => Response.json(await budgetStatus({ ctx })), {
  route: "/api/v1/usage",
});
