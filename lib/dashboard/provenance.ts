/**
 * Where a result was found, for the playground's result lists and a research job's sources: one badge per
 * provider (its best rank), and every listing behind them for whoever opens the detail. A research source
 * found by five providers for six searches is thirty listings: grouped, five badges. Client components
 * import this at run time.
 */
import { compareStrings } from "@/lib/engine/search/text";

/** One provider's listing of a result: its rank there, and the search it answered when there were several. */
export interface Listing {
  provider: string;
  rank: number;
  query?: string;
}

export interface ProviderListings {
  provider: string;
  /** Its best rank over all its listings. */
  bestRank: number;
  /** Its listings, best rank first (ties in the order given). */
  listings: Listing[];
}

const byBestRank = (a: ProviderListings, b: ProviderListings) =>
  a.bestRank - b.bestRank || compareStrings(a.provider, b.provider);

/** The listings grouped by provider, the best-placed provider first (ties by name). */
export function groupByProvider(listings: readonly Listing[]): ProviderListings[] {
  const groups = new Map<string, Listing[]>();
  for (const listing of listings)
    groups.set(listing.provider, [...(groups.get(listing.provider) ?? []), listing]);
  return [...groups]
    .map(([provider, own]) => {
      const sorted = [...own].sort((a, b) => a.rank - b.rank);
      return { provider, bestRank: sorted[0]?.rank ?? 0, listings: sorted };
    })
    .sort(byBestRank);
}

/** "brave: best rank #2 (3 listings)", the badge's tooltip and its words for screen readers. */
export function bestRankText({ provider, bestRank, listings }: ProviderListings): string {
  const more = listings.length > 1 ? ` (${listings.length} listings)` : "";
  return `${provider}: best rank #${bestRank}${more}`;
}

/** The host a reader recognises a page by: without `www.`; the text as given when it is no URL. */
export function domainOf(url: string): string {
  try {
    return new URL(url).hostname.replace(/^www\./, "");
  } catch {
    return url;
  }
}
