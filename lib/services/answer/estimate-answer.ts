/**
 * answer's estimate (`estimate: true`): the answer providers the call would ask (its own selection, less keys
 * paused or behind an open breaker), each at what its admission reserves (a provider billed by tokens at its
 * ceiling of them), plus the web search that grounds the grounded ones. Nothing is asked or charged.
 */
import { answerReservationMicros } from "@/lib/engine/answer/answer-pricing";
import { assertScope, type TenantContext, type VerbArgs } from "@/lib/pipeline/context";
import { addEstimates, askable, type CallEstimate, NO_CALLS } from "@/lib/pipeline/estimate";
import { selectedProviders } from "@/lib/pipeline/providers/tenant-providers";
import { parseInput } from "@/lib/pipeline/validate";
import { answerProviders } from "@/lib/providers/answer";
import { estimateWebSearch } from "@/lib/services/search/estimate-web-search";
import { answerToolInput, groundingSearchInput, offeredAnswerProviders } from "./answer";

export async function estimateAnswer({
  ctx,
  input,
}: VerbArgs<TenantContext, typeof answerToolInput>): Promise<CallEstimate> {
  assertScope(ctx, "answer");
  const { query, providers } = parseInput(answerToolInput, input);
  const selected = await selectedProviders(ctx, {
    registry: answerProviders,
    wanted: providers,
    tool: "answer",
  });
  const asked = await askable(ctx, offeredAnswerProviders(ctx, providers, selected));
  const grounding = asked.some((entry) => entry.provider.grounded)
    ? await estimateWebSearch({ ctx, input: groundingSearchInput(query) })
    : NO_CALLS;
  const answers: CallEstimate = {
    providers: asked.map((entry) => entry.provider.id),
    maxCostMicros: asked.reduce((sum, entry) => sum + answerReservationMicros(entry, query), 0),
  };
  return addEstimates(answers, grounding);
}
