/**
 * web_search's estimate (`estimate: true`): the search providers the call would ask (its own selection, less
 * keys paused or behind an open breaker and, for news, providers without a news search; in the cost ladder's
 * order for mode `budget`), every one counted as asked and billed once per query, plus what its depth stages
 * could cost (grounded snippets, include_content). Nothing is searched, read or charged.
 */
import { byTopic } from "@/lib/engine/search/topic";
import { ladderOrder } from "@/lib/engine/shared/ladder";
import { assertScope, type TenantContext, type VerbArgs } from "@/lib/pipeline/context";
import { addEstimates, askable, type CallEstimate, estimateOf } from "@/lib/pipeline/estimate";
import { selectedProviders } from "@/lib/pipeline/providers/tenant-providers";
import { parseInput } from "@/lib/pipeline/validate";
import { searchProviders } from "@/lib/providers/search";
import { resolveLens } from "@/lib/services/lenses/resolve-lens";
import { planDepthStages } from "./depth-stages";
import { depthStageRequest, webSearchInput } from "./web-search";

export async function estimateWebSearch({
  ctx,
  input,
}: VerbArgs<TenantContext, typeof webSearchInput>): Promise<CallEstimate> {
  assertScope(ctx, "search");
  const parsed = parseInput(webSearchInput, input);
  const { providers, lens, queries, ...options } = parsed;
  if (lens) await resolveLens(ctx, lens); // an unknown lens is the call's input error
  const stages = await planDepthStages(ctx, depthStageRequest(parsed));
  const selected = await selectedProviders(ctx, {
    registry: searchProviders,
    wanted: providers,
    tool: "web_search",
  });
  const { able } = byTopic(selected, options.topic);
  const asked = await askable(ctx, options.mode === "budget" ? ladderOrder(able) : able);
  const perQuery = { times: queries?.length ?? 1, results: options.max_results };
  return addEstimates(estimateOf(asked, perQuery), stages.estimate());
}
