import { toolRoute } from "@/lib/api/tool-route";
import { tools } from "@/lib/tools/table";

export const dynamic = "force-dynamic";

/** POST /api/v1/search — fused web search over the tenant's providers (lib/tools/table.ts). */
export const POST = toolRoute(tools.web_search);
