import type { TenantContext } from "@/lib/pipeline/context";
import { tools } from "@/lib/tools/table";

/**
 * A web search for the compatibility endpoints, whose clients send loosely typed values (query params,
 * `count` as a numeric string). Only that loosening is applied: anything else (an object for the query,
 * a word for the count) reaches the verb as sent and is refused by its validation. The call goes through
 * the tool table's entry, as /api/v1/search does, so the connection's profile binds it there too (refused
 * when it leaves web_search out, its defaults under the call's arguments).
 */
export async function compatSearch(ctx: TenantContext, query: unknown, count: unknown) {
  const numeric = typeof count === "string" && /^\d+$/.test(count.trim()) ? Number(count) : count;
  const { response } = await tools.web_search.run(
    ctx,
    {
      query: (query ?? "") as string,
      max_results: (numeric ?? undefined) as number | undefined,
    },
    {},
  );
  return response.results;
}
