import { toolRoutes } from "@/lib/api/tool-route";
import { TOOLS } from "@/lib/tools/table";

export const dynamic = "force-dynamic";
/**
 * One route serves every tool, so it has one duration cap: the longest any tool needs. That is
 * web_search with grounded snippets (search up to 60 s, then 20 pages, 5 at a time, up to 60 s each);
 * answer and fetch stop at 120 s, paper_search at 60 s. Platforms that cap function duration honour it.
 */
export const maxDuration = 300;

/**
 * POST /api/v1/search, /fetch, /answer, /papers and GET /api/v1/usage: each entry of the tool table at its
 * path (lib/tools/table.ts, lib/api/tool-route.ts); static routes beside it (budgets, keys, …) come first.
 */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = toolRoutes(TOOLS);
