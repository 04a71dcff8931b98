/**
 * What a provider call costs from its price (types.ts `Price`): the one function the admission's reservation,
 * the charge kept and the estimate all use, so an estimate is what a call reserves. Pure: no env, no I/O.
 */
import type { Price, ProviderRegistration, ResolvedProvider, TokenUsage } from "./types";

const MICROS_PER_USD = 1_000_000;

/** USD amounts travel as dollars in APIs and as integer micro-dollars in the database. */
export const usdToMicros = (usd: number) => Math.round(usd * MICROS_PER_USD);

/** The price a call is charged at: the operator's override the caller resolved, else the table's. */
export const priceOf = (entry: ResolvedProvider<ProviderRegistration>): Price =>
  entry.effectivePrice ?? entry.provider.price;

/** Whether the price depends on how many results a call gets (Exa, Firecrawl). */
const pricedByResults = (price: Price): boolean =>
  price.results_included !== undefined && (price.usd_per_extra_result ?? 0) > 0;

/**
 * One request returning `results` results, in micro-dollars: the request price, plus each result beyond those
 * included (in started blocks where the provider bills so: Firecrawl's 11 results are two blocks of 10).
 * Without a count, the request price alone.
 */
export function requestCostMicros(price: Price, results?: number): number {
  const base = usdToMicros(price.usd_per_request);
  if (results === undefined || !pricedByResults(price)) return base;
  const extra = Math.max(results - (price.results_included ?? 0), 0);
  const block = price.results_per_block ?? 1;
  const billedExtra = Math.ceil(extra / block) * block;
  return base + billedExtra * usdToMicros(price.usd_per_extra_result ?? 0);
}

/** The results a call asking for `requested` can be billed for: no more than its adapter asks the provider for. */
export const resultsBilledAtMost = (provider: ProviderRegistration, requested: number): number =>
  Math.min(requested, provider.maxResults ?? requested);

/**
 * A call priced by its result count, for the attempt's `pricing` (isolated-call.ts): reserved at the count
 * asked for, charged at the count the provider returned (at most the reservation). Undefined when the price
 * does not depend on the count: the request price is reserved and kept.
 */
export function resultCountPricing<R extends { results: readonly unknown[] }>(
  price: Price,
  requested: number,
): { reserveMicros: number; costMicros(response: R): number } | undefined {
  if (!pricedByResults(price)) return undefined;
  return {
    reserveMicros: requestCostMicros(price, requested),
    costMicros: (response) => requestCostMicros(price, response.results.length),
  };
}

/**
 * Tokens at a price per million [input, output], in micro-dollars: a token at $N per million is N
 * micro-dollars, rounded up so that a fraction of a micro-dollar is never given away.
 */
export const tokenCostMicros = (perMillion: readonly [number, number], tokens: TokenUsage): number =>
  Math.ceil(tokens.input * perMillion[0] + tokens.output * perMillion[1]);

/**
 * A call priced by its tokens on top of its request price, for the attempt's `pricing`: reserved at the
 * request price plus the `ceiling` of tokens, charged at the request price plus the tokens the answer
 * reports (the reservation when it reports none). Undefined when the price has no token part.
 */
export function tokenPricing<R>(
  price: Price,
  ceiling: TokenUsage,
  usageOf: (response: R) => TokenUsage | undefined,
): { reserveMicros: number; costMicros(response: R): number } | undefined {
  const perMillion = price.usd_per_million_tokens;
  if (perMillion === undefined) return undefined;
  const request = requestCostMicros(price);
  const reserveMicros = request + tokenCostMicros(perMillion, ceiling);
  return {
    reserveMicros,
    costMicros: (response) => {
      const used = usageOf(response);
      return used ? request + tokenCostMicros(perMillion, used) : reserveMicros;
    },
  };
}
