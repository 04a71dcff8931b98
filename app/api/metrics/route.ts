import { randomUUID } from "node:crypto";
import { toErrorResponse } from "@/lib/api/errors";
import { routeMethods } from "@/lib/api/route-methods";
import { bearerToken } from "@/lib/api/with-token";
import { config } from "@/lib/config";
import { platform } from "@/lib/pipeline/platform";
import { metricsText } from "@/lib/services/health/metrics-text";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  /** GET /api/metrics — Prometheus text for the operator (Bearer SEARCHMUX_OPERATOR_TOKEN); 404 when unset. */
  async GET(request: Request) {
    try {
      const { contentType, body } = await metricsText({
        ctx: await platform(),
        input: { token: bearerToken(request), operatorToken: config().operator.token },
      });
      return new Response(body, { headers: { "content-type": contentType, "cache-control": "no-store" } });
    } catch (error) {
      return toErrorResponse(error, randomUUID());
    }
  },
});
