import { toolRoute } from "@/lib/api/tool-route";
import { tools } from "@/lib/tools/table";

export const dynamic = "force-dynamic";

/** POST /api/v1/fetch — a page as Markdown, text or HTML, through the SSRF-safe fetcher and providers (lib/tools/table.ts). */
export const POST = toolRoute(tools.fetch);
