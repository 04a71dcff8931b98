import { keepWorkingAfterResponse } from "@/lib/api/research-work";
import { routeMethods } from "@/lib/api/route-methods";
import { withToken } from "@/lib/api/with-token";
import { cancelCrawlJob, getCrawlJob } from "@/lib/services/crawl/get-crawl-job";

export const dynamic = "force-dynamic";
// A read of a job nobody runs resumes it, and on serverless hosts the function stays until it is done.
export const maxDuration = 300;

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  /**
   * GET /api/v1/crawl/<id> — a crawl job's status, progress (pages read, queued) and the pages so far; the
   * whole result once it succeeded. A job nobody runs (its instance died) is resumed.
   */
  GET: withToken<{ id: string }>(
    async (_request, { ctx, params }) => {
      keepWorkingAfterResponse();
      return Response.json(await getCrawlJob({ ctx, input: { id: params.id } }));
    },
    { route: "/api/v1/crawl/[id]", scope: "fetch" },
  ),
  /** DELETE /api/v1/crawl/<id> — cancels a queued or running crawl job (the pages read so far stay). */
  DELETE: withToken<{ id: string }>(
    async (_request, { ctx, params }) =>
      Response.json(await cancelCrawlJob({ ctx, input: { id: params.id } })),
    { route: "/api/v1/crawl/[id]", scope: "fetch" },
  ),
});
