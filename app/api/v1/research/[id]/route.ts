import { keepWorkingAfterResponse } from "@/lib/api/research-work";
import { routeMethods } from "@/lib/api/route-methods";
import { withToken } from "@/lib/api/with-token";
import { cancelResearch } from "@/lib/services/research/cancel-research";
import { getResearch } from "@/lib/services/research/get-research";

export const dynamic = "force-dynamic";
// A read of a job nobody runs resumes it, and on serverless hosts the function stays until it is done.
export const maxDuration = 300;

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  /**
   * GET /api/v1/research/<id> — status, progress and, once it succeeded, the cited report and sources; a
   * job nobody runs (its instance died) is resumed.
   */
  GET: withToken<{ id: string }>(
    async (_request, { ctx, params }) => {
      keepWorkingAfterResponse();
      return Response.json(await getResearch({ ctx, input: { id: params.id } }));
    },
    { route: "/api/v1/research/[id]", scope: "search" },
  ),
  /** DELETE /api/v1/research/<id> — cancels a queued or running job. */
  DELETE: withToken<{ id: string }>(
    async (_request, { ctx, params }) =>
      Response.json(await cancelResearch({ ctx, input: { id: params.id } })),
    { route: "/api/v1/research/[id]", scope: "search" },
  ),
});
