/**
 * What one answer provider's call reserves and is charged: its request price, plus its tokens where its price
 * has a token part (Brave Answers, Perplexity Sonar, Gemini, a priced operator model): reserved at the adapter's
 * ceiling of tokens, charged by the tokens the answer reports. The estimate prices each provider the same way,
 * so an estimate is what the call reserves.
 */
import { priceOf, requestCostMicros, tokenPricing } from "@/lib/engine/shared/price";
import type { AnswerEntry, ProviderAnswer } from "./types";

/** The attempt's `pricing` (isolated-call.ts), or undefined when the call is charged its request price. */
export function answerPricing(entry: AnswerEntry, query: string) {
  const ceiling = entry.provider.tokenCeiling?.(query);
  if (ceiling === undefined) return undefined;
  return tokenPricing<ProviderAnswer>(priceOf(entry), ceiling, (answer) => answer.usage);
}

/** The most one provider's answer to `query` can cost, in micro-dollars: what its admission reserves. */
export function answerReservationMicros(entry: AnswerEntry, query: string): number {
  return answerPricing(entry, query)?.reserveMicros ?? requestCostMicros(priceOf(entry));
}
