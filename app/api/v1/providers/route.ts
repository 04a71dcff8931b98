import { routeMethods } from "@/lib/api/route-methods";
import { withToken } from "@/lib/api/with-token";
import { providerStatus } from "@/lib/services/providers/provider-status";
import { toProviderStatusResponse } from "@/lib/tools/provider-kinds";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  /**
   * GET /api/v1/providers — every provider: availability per tool, whose key pays and its last verdict,
   * budgets left, circuit breaker, and success rate / latency over the last day. Any valid token.
   */
  GET: withToken(
    async (_request, { ctx }) => Response.json(toProviderStatusResponse(await providerStatus({ ctx }))),
    {
      route: "/api/v1/providers",
    },
  ),
});
