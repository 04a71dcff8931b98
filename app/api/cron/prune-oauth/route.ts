import { cronRoute } from "@/lib/api/cron-route";
import { routeMethods } from "@/lib/api/route-methods";

export const dynamic = "force-dynamic";
export const maxDuration = 300;

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  /** GET /api/cron/prune-oauth — deletes OAuth codes, tokens, connected apps and clients that ended (CRON_SECRET). */
  GET: cronRoute("prune-oauth"),
});
