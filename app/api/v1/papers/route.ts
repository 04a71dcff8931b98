import { toolRoute } from "@/lib/api/tool-route";
import { tools } from "@/lib/tools/table";

export const dynamic = "force-dynamic";

/** POST /api/v1/papers — arXiv, PubMed, Semantic Scholar and OpenAlex, merged (lib/tools/table.ts). */
export const POST = toolRoute(tools.paper_search);
