import { toolRoute } from "@/lib/api/tool-route";
import { tools } from "@/lib/tools/table";

export const dynamic = "force-dynamic";
/** Answer providers may take two minutes; platforms that cap function duration honour this. */
export const maxDuration = 150;

/** POST /api/v1/answer — every configured answer provider side by side, with citations (lib/tools/table.ts). */
export const POST = toolRoute(tools.answer);
