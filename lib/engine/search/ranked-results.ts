import type { ProviderId, ProviderResult } from "./types";
import { parseResultUrl } from "./url";

/** One provider result with its rank in that provider's list and its URL parsed once. */
export interface RankedResult {
  provider: ProviderId;
  /** Position in the provider's own list, 1-based; kept when results are filtered out around it. */
  rank: number;
  /** normalizeUrl(result.url). */
  key: string;
  /** Host without `www.`. */
  host: string;
  /** The result's URL cleaned for display (see parseResultUrl). */
  link: string;
  result: ProviderResult;
}

/**
 * Ranks a provider's list. Results whose URL is not http(s) are dropped; when a provider lists one
 * page twice (URL variants), the first, better-ranked, occurrence counts.
 */
export function rankProviderResults(
  provider: ProviderId,
  results: readonly ProviderResult[],
): RankedResult[] {
  const seen = new Set<string>();
  const ranked: RankedResult[] = [];
  results.forEach((result, index) => {
    const parsed = parseResultUrl(result.url);
    if (parsed === null || seen.has(parsed.key)) return;
    seen.add(parsed.key);
    ranked.push({ provider, rank: index + 1, ...parsed, result });
  });
  return ranked;
}
