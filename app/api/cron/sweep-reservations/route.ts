import { cronRoute } from "@/lib/api/cron-route";
import { routeMethods } from "@/lib/api/route-methods";

export const dynamic = "force-dynamic";
export const maxDuration = 300;

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  /** GET /api/cron/sweep-reservations — refunds reservations of calls that never settled (CRON_SECRET). */
  GET: cronRoute("sweep-reservations"),
});
