import { toolRoute } from "@/lib/api/tool-route";
import { tools } from "@/lib/tools/table";

export const dynamic = "force-dynamic";

/**
 * GET /api/v1/usage — budget_status: what each budget leaves, per-provider usage and free tiers. Any valid
 * token; budget ids, soft limits and alerts only with the admin scope (lib/tools/table.ts).
 */
export const GET = toolRoute(tools.budget_status);
