/**
 * research's estimate (`estimate: true`): a job plans with the workspace's model (when it has one), runs up to
 * `max_queries` searches (each the web_search estimate of a sub-query), reads up to `max_pages` pages (each
 * through every fetch step) and writes the report with the model. `max_cost_usd` stops new searches once
 * reached, not the search in flight, the reading or the report: the ceiling is the full plan, or the limit
 * plus those, whichever is less. Nothing is queued, asked or charged.
 */
import { usdToMicros } from "@/lib/pipeline/budgets/units";
import { assertScope, type TenantContext, type VerbArgs } from "@/lib/pipeline/context";
import { addEstimates, type CallEstimate, estimateOf, repeated } from "@/lib/pipeline/estimate";
import { parseInput } from "@/lib/pipeline/validate";
import { askableFetchSteps, pageEstimate } from "@/lib/services/fetch/estimate-fetch";
import { tenantModel } from "@/lib/services/search/depth-stages";
import { estimateWebSearch } from "@/lib/services/search/estimate-web-search";
import { assertOutputSchemaCompiles, researchInput } from "./input";
import { subQuerySearch } from "./run-research-job";

export async function estimateResearch({
  ctx,
  input,
}: VerbArgs<TenantContext, typeof researchInput>): Promise<CallEstimate> {
  assertScope(ctx, "search");
  const parsed = parseInput(researchInput, input);
  await assertOutputSchemaCompiles(parsed);
  const model = await tenantModel(ctx);
  const modelCall = estimateOf(model ? [model] : []);
  const search = await estimateWebSearch({ ctx, input: subQuerySearch(parsed.question, parsed) });
  const read = repeated(pageEstimate(await askableFetchSteps(ctx)), parsed.max_pages);
  const full = addEstimates(modelCall, repeated(search, parsed.max_queries), read, modelCall);
  if (parsed.max_cost_usd === undefined) return full;
  const pastLimit = addEstimates(search, read, modelCall).maxCostMicros;
  const capped = usdToMicros(parsed.max_cost_usd) + pastLimit;
  return { ...full, maxCostMicros: Math.min(full.maxCostMicros, capped) };
}
