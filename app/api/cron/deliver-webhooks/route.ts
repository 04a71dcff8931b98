import { cronRoute } from "@/lib/api/cron-route";
import { routeMethods } from "@/lib/api/route-methods";

export const dynamic = "force-dynamic";
// A run sends its batch in parallel, each attempt bounded (10 s); the response waits for them.
export const maxDuration = 60;

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  /** GET /api/cron/deliver-webhooks — sends the webhook deliveries that are due, a batch a run (CRON_SECRET). */
  GET: cronRoute("deliver-webhooks"),
});
