import { readJsonBody } from "@/lib/api/body";
import { compatSearch } from "@/lib/api/compat-search";
import { routeMethods } from "@/lib/api/route-methods";
import { withToken } from "@/lib/api/with-token";

export const dynamic = "force-dynamic";
/** A web search, with grounded snippets when the workspace has them on (see app/api/v1/[tool]/route.ts). */
export const maxDuration = 300;

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = routeMethods({
  /**
   * Open WebUI's external web search (engine "external"): `POST {query, count}` with
   * `Authorization: Bearer <External Search API Key>` → `[{link, title, snippet}]`.
   */
  POST: withToken(
    async (request, { ctx }) => {
      const { query, count } = await readJsonBody<{ query?: unknown; count?: unknown }>(request);
      const results = await compatSearch(ctx, query, count);
      return Response.json(results.map((r) => ({ link: r.url, title: r.title, snippet: r.snippet })));
    },
    { route: "/api/search", scope: "search" },
  ),
});
