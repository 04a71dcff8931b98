import { z } from "zod";
import { searchInputSchema } from "../../engine/search/input";
import { runSearch } from "../../engine/search/run-search";
import { searchProviders } from "../../providers/search";
import { assertScope, type TenantContext } from "../context";
import type { OnProgress } from "../provider-attempts";
import { runToolCall } from "../tool-call";
import { parseInput } from "../validate";

export const webSearchInput = searchInputSchema
  .extend({
    providers: z.array(z.string().trim().toLowerCase().min(1).max(40)).min(1).max(30).optional(),
    no_cache: z.boolean().optional(),
  })
  .strict();

/** web_search for a tenant: fan-out over its providers with budgets, cache and refunds (tool-call.ts). */
export async function webSearch({
  ctx,
  input,
  onProgress,
}: {
  ctx: TenantContext;
  input: z.input<typeof webSearchInput>;
  /** Told of each provider attempt as it finishes. */
  onProgress?: OnProgress;
}) {
  assertScope(ctx, "search");
  const { providers, no_cache, ...engineInput } = parseInput(webSearchInput, input);
  return runToolCall(ctx, {
    onProgress,
    tool: "web_search",
    spanKind: "search",
    registry: searchProviders,
    wanted: providers,
    noCache: no_cache,
    cacheInput: engineInput,
    run: (entries, admit) => runSearch({ input: engineInput, providers: entries, admit }),
    succeeded: (result) => result.providers_succeeded.length,
    summarize: (result) => ({
      results: result.results.length,
      top_urls: result.results.slice(0, 5).map((r) => r.url),
    }),
  });
}

export type WebSearchResult = Awaited<ReturnType<typeof webSearch>>;
