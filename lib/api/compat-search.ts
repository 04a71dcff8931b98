import type { TenantContext } from "@/lib/pipeline/context";
import { webSearch } from "@/lib/services/search/web-search";

/**
 * A web search for the compatibility endpoints, whose clients send loosely typed values (query params,
 * `count` as a numeric string). Only that loosening is applied: anything else (an object for the query,
 * a word for the count) reaches the verb as sent and is refused by its validation.
 */
export async function compatSearch(ctx: TenantContext, query: unknown, count: unknown) {
  const numeric = typeof count === "string" && /^\d+$/.test(count.trim()) ? Number(count) : count;
  const result = await webSearch({
    ctx,
    input: {
      query: (query ?? "") as string,
      max_results: (numeric ?? undefined) as number | undefined,
    },
  });
  return result.results;
}
