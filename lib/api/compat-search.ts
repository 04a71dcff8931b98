import type { TenantContext } from "../services/context";
import { webSearch } from "../services/search/web-search";

/**
 * A web search for the compatibility endpoints, whose clients send loosely typed values (query params,
 * `count` as a string); the verb validates them like any other input.
 */
export async function compatSearch(ctx: TenantContext, query: unknown, count: unknown) {
  const result = await webSearch({
    ctx,
    input: {
      query: String(query ?? ""),
      max_results: count === undefined || count === null ? undefined : Number(count),
    },
  });
  return result.results;
}
