/**
 * The pages a research job reads: Reciprocal Rank Fusion across its sub-queries (score = Σ 1/(k + rank),
 * k = 60, rank = the page's position in a sub-query's fused results, one term per sub-query), pages
 * identified by the search engine's normalised URL. Each page keeps the title, snippet and date of its
 * best-placed listing that has one, the URL of its best-placed listing over https when any came over https,
 * and every provider rank that found it (`found_by`). Order: score descending, then
 * best position, then the number of sub-queries that found it, then the normalised URL: deterministic.
 */
import { RRF_K } from "@/lib/engine/search/fusion";
import { compareStrings } from "@/lib/engine/search/text";
import { parseResultUrl, preferHttps } from "@/lib/engine/search/url";
import type { FoundBy, PageCandidate, SubQueryResults } from "./types";

type Listing = SubQueryResults["results"][number];

interface Candidate {
  key: string;
  score: number;
  /** Best position in any sub-query, 1-based. */
  bestRank: number;
  queries: Set<number>;
  /** Listings, best placed first: the first with a usable title or snippet supplies it. */
  listings: Array<{ link: string; rank: number; listing: Listing }>;
  /** found_by keyed by sub-query index and provider, the provider's best rank kept. */
  found: Map<string, FoundBy & { queryIndex: number }>;
}

export function selectPages(searches: readonly SubQueryResults[], maxPages: number): PageCandidate[] {
  const candidates = new Map<string, Candidate>();
  searches.forEach((search, queryIndex) => {
    search.results.forEach((listing, position) => {
      const parsed = parseResultUrl(listing.url);
      if (parsed === null) return;
      const rank = position + 1;
      let candidate = candidates.get(parsed.key);
      if (candidate === undefined) {
        candidate = {
          key: parsed.key,
          score: 0,
          bestRank: rank,
          queries: new Set(),
          listings: [],
          found: new Map(),
        };
        candidates.set(parsed.key, candidate);
      }
      // A page listed twice in one sub-query (URL variants) counts once there, at its better position.
      if (!candidate.queries.has(queryIndex)) candidate.score += 1 / (RRF_K + rank);
      candidate.queries.add(queryIndex);
      candidate.bestRank = Math.min(candidate.bestRank, rank);
      candidate.listings.push({ link: parsed.link, rank, listing });
      for (const source of listing.sources) {
        const id = `${queryIndex}\u0000${source.provider}`;
        const known = candidate.found.get(id);
        if (known === undefined || source.rank < known.rank) {
          candidate.found.set(id, {
            query: search.query,
            provider: source.provider,
            rank: source.rank,
            queryIndex,
          });
        }
      }
    });
  });

  const ranked = [...candidates.values()];
  for (const candidate of ranked) candidate.score = Math.round(candidate.score * 1e12) / 1e12;
  ranked.sort(
    (a, b) =>
      b.score - a.score ||
      a.bestRank - b.bestRank ||
      b.queries.size - a.queries.size ||
      compareStrings(a.key, b.key),
  );
  return ranked.slice(0, Math.max(0, maxPages)).map(toPage);
}

function toPage(candidate: Candidate): PageCandidate {
  // Stable sort: equal positions keep sub-query order.
  const listings = [...candidate.listings].sort((a, b) => a.rank - b.rank);
  const title = listings
    .map(({ listing }) => listing.title.trim())
    .find((t) => t !== "" && !/^https?:\/\//i.test(t));
  const snippet = listings.map(({ listing }) => listing.snippet.trim()).find((s) => s !== "");
  const publishedAt = listings.map(({ listing }) => listing.publishedAt).find(Boolean);
  const found = [...candidate.found.values()].sort(
    (a, b) => a.queryIndex - b.queryIndex || a.rank - b.rank || compareStrings(a.provider, b.provider),
  );
  const url = preferHttps(listings.map(({ link }) => link)) ?? candidate.key;
  return {
    url,
    title: title ?? url,
    snippet: snippet ?? "",
    found_by: found.map(({ query, provider, rank }) => ({ query, provider, rank })),
    ...(publishedAt && { published_at: publishedAt }),
    score: candidate.score,
  };
}
