import { cronRoute } from "@/lib/api/cron-route";
import { routeMethods } from "@/lib/api/route-methods";

export const dynamic = "force-dynamic";
export const maxDuration = 300;

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  /** GET /api/cron/prune-traces — deletes traces past each workspace's retention (CRON_SECRET). */
  GET: cronRoute("prune-traces"),
});
