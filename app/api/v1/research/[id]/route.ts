import { jobRoute } from "@/lib/api/job-route";
import { routeMethods } from "@/lib/api/route-methods";
import { cancelResearch } from "@/lib/services/research/cancel-research";
import { getResearch } from "@/lib/services/research/get-research";

export const dynamic = "force-dynamic";
// A read of a job nobody runs resumes it, and on serverless hosts the function stays until it is done.
export const maxDuration = 300;

/**
 * GET /api/v1/research/<id> — status, progress and, once it succeeded, the cited report and sources. DELETE
 * cancels a queued or running job.
 */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods(
  jobRoute({ route: "/api/v1/research/[id]", scope: "search", read: getResearch, cancel: cancelResearch }),
);
