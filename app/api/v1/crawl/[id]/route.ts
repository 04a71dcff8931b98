import { jobRoute } from "@/lib/api/job-route";
import { routeMethods } from "@/lib/api/route-methods";
import { cancelCrawlJob, getCrawlJob } from "@/lib/services/crawl/get-crawl-job";

export const dynamic = "force-dynamic";
// A read of a job nobody runs resumes it, and on serverless hosts the function stays until it is done.
export const maxDuration = 300;

/**
 * GET /api/v1/crawl/<id> — a crawl job's status, progress (pages read, queued) and the pages so far; the whole
 * result once it succeeded. DELETE cancels a queued or running crawl job (the pages read so far stay).
 */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods(
  jobRoute({ route: "/api/v1/crawl/[id]", scope: "fetch", read: getCrawlJob, cancel: cancelCrawlJob }),
);
