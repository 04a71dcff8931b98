/**
 * Transport: the route of a background job (`app/api/cron/<name>/route.ts`). Vercel Cron calls it with GET
 * and `Authorization: Bearer $CRON_SECRET`; any other scheduler can do the same. Answers the run as JSON at
 * once; research jobs the run claimed (resume-research) go on after the response, the function kept for them.
 */
import { randomUUID } from "node:crypto";
import { errorResponse, toErrorResponse } from "@/lib/api/errors";
import { keepWorkingAfterResponse } from "@/lib/api/research-work";
import { bearerToken } from "@/lib/api/with-token";
import { platform } from "@/lib/pipeline/platform";
import type { BackgroundJobName } from "@/lib/services/ops/background-jobs";
import { cronAccess } from "@/lib/services/ops/cron-access";
import { runBackgroundJob } from "@/lib/services/ops/run-background-job";

const NO_STORE = { "cache-control": "no-store" };

export function cronRoute(name: BackgroundJobName) {
  return async (request: Request): Promise<Response> => {
    try {
      const ctx = await platform();
      const access = cronAccess(bearerToken(request), ctx.env);
      if (access === "not_configured") {
        return Response.json(
          { error: { code: "not_configured", message: "CRON_SECRET is not set" } },
          { status: 503, headers: NO_STORE },
        );
      }
      if (access === "unauthorized") {
        return errorResponse(
          "unauthorized",
          "this route needs Authorization: Bearer <CRON_SECRET>",
          undefined,
          NO_STORE,
        );
      }
      keepWorkingAfterResponse();
      return Response.json(await runBackgroundJob({ ctx, input: { name } }), { headers: NO_STORE });
    } catch (error) {
      return toErrorResponse(error, randomUUID());
    }
  };
}
