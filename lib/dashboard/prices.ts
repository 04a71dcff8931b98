/** How the price table reads on the Budgets page. */
import type { Price } from "@/lib/engine/shared/types";
import { formatUsdPrice } from "./format";

/** "free", "$0.007", "$0.005 + $1.00 / $1.00 per M tokens": what one call costs before extra results. */
export function perCallPrice(price: Price): string {
  const tokens = price.usd_per_million_tokens;
  if (price.usd_per_request === 0 && !tokens) return "free";
  const call = formatUsdPrice(price.usd_per_request);
  return tokens ? `${call} + ${formatUsdPrice(tokens[0])} / ${formatUsdPrice(tokens[1])} per M tokens` : call;
}

/** "$0.001 each beyond 10", "$0.0106 per 10 beyond 10" (started blocks), or "–" when the count is not priced. */
export function extraResultsPrice(price: Price): string {
  if (price.usd_per_extra_result === undefined || price.results_included === undefined) return "–";
  const block = price.results_per_block ?? 1;
  const each = formatUsdPrice(price.usd_per_extra_result * block);
  return `${block === 1 ? `${each} each` : `${each} per ${block}`} beyond ${price.results_included}`;
}
