/** paper_search's estimate (`estimate: true`): the paper sources the call would ask and what they cost (free). */
import { assertScope, type TenantContext, type VerbArgs } from "@/lib/pipeline/context";
import { askable, type CallEstimate, estimateOf } from "@/lib/pipeline/estimate";
import { selectedProviders } from "@/lib/pipeline/providers/tenant-providers";
import { parseInput } from "@/lib/pipeline/validate";
import { paperProviders } from "@/lib/providers/papers";
import { paperSearchToolInput } from "./paper-search";

export async function estimatePaperSearch({
  ctx,
  input,
}: VerbArgs<TenantContext, typeof paperSearchToolInput>): Promise<CallEstimate> {
  assertScope(ctx, "papers");
  const { providers } = parseInput(paperSearchToolInput, input);
  const selected = await selectedProviders(ctx, {
    registry: paperProviders,
    wanted: providers,
    tool: "paper_search",
  });
  return estimateOf(await askable(ctx, selected));
}
