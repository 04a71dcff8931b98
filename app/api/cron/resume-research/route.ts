import { cronRoute } from "@/lib/api/cron-route";
import { routeMethods } from "@/lib/api/route-methods";

export const dynamic = "force-dynamic";
// The research jobs a run claims go on after the response: the function lives until they end (or this).
export const maxDuration = 300;

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  /** GET /api/cron/resume-research — resumes research jobs nobody runs, a batch a run (CRON_SECRET). */
  GET: cronRoute("resume-research"),
});
