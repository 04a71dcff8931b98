import { readJsonBody } from "@/lib/api/body";
import { compatSearch } from "@/lib/api/compat-search";
import { withToken } from "@/lib/api/with-token";

export const dynamic = "force-dynamic";

/**
 * Open WebUI's external web search (engine "external"): `POST {query, count}` with
 * `Authorization: Bearer <External Search API Key>` → `[{link, title, snippet}]`.
 */
export const POST = withToken(
  async (request, { ctx }) => {
    const { query, count } = await readJsonBody<{ query?: unknown; count?: unknown }>(request);
    const results = await compatSearch(ctx, query, count);
    return Response.json(results.map((r) => ({ link: r.url, title: r.title, snippet: r.snippet })));
  },
  { route: "/api/search", scope: "search" },
);
