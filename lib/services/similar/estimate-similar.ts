/**
 * similar's estimate (`estimate: true`): Exa's findSimilar where the workspace can call it now, otherwise
 * what the fallback would ask, the page's fetch and a web search, every provider counted as asked and
 * billed. Nothing is called or charged.
 */

import { similarResultsAsked } from "@/lib/engine/similar/run-similar";
import { assertScope, type TenantContext, type VerbArgs } from "@/lib/pipeline/context";
import { addEstimates, askable, type CallEstimate, estimateOf } from "@/lib/pipeline/estimate";
import { tenantProviders } from "@/lib/pipeline/providers/tenant-providers";
import { parseInput } from "@/lib/pipeline/validate";
import { similarProviders } from "@/lib/providers/similar";
import { estimateFetch } from "@/lib/services/fetch/estimate-fetch";
import { estimateWebSearch } from "@/lib/services/search/estimate-web-search";
import { refuseBlockedUrl, similarInput } from "./similar";

export async function estimateSimilar({
  ctx,
  input,
}: VerbArgs<TenantContext, typeof similarInput>): Promise<CallEstimate> {
  assertScope(ctx, "search");
  const { url, max_results } = parseInput(similarInput, input);
  refuseBlockedUrl(url, ctx.env);
  const { available } = await tenantProviders(ctx, similarProviders);
  if (available.length > 0)
    return estimateOf(await askable(ctx, available), { results: similarResultsAsked(max_results) });
  // The query is built from the page; any query asks the same search providers.
  return addEstimates(
    await estimateFetch({ ctx, input: { url } }),
    await estimateWebSearch({ ctx, input: { query: "similar pages", max_results } }),
  );
}
