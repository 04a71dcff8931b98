/**
 * web_search's `queries`: the searches of one call as one outcome. With `merge`, their fused lists are fused
 * again by Reciprocal Rank Fusion over normalised URLs (each query's list a ranking, k = 60 as in
 * fusion.ts): a page several queries found ranks first. A merged page keeps the best-ranked query's title,
 * snippet, date and publisher, its URL (the best-ranked https one when any query's was: url.ts, preferHttps)
 * and every provider that found it (each at its best rank).
 */

import { uniqueAdjustments } from "@/lib/engine/shared/adjustments";
import { RRF_K } from "./fusion";
import type { SearchResult } from "./run-search";
import { compareStrings } from "./text";
import type { FusedResult } from "./types";
import { normalizeUrl, preferHttps } from "./url";

interface Candidate {
  key: string;
  score: number;
  bestRank: number;
  best: FusedResult;
  /** Its URL in each list, with its rank there. */
  links: Array<{ rank: number; url: string }>;
  sources: Map<string, number>;
}

export function mergeQueryResults(
  lists: readonly (readonly FusedResult[])[],
  maxResults: number,
): FusedResult[] {
  const candidates = new Map<string, Candidate>();
  for (const list of lists) {
    list.forEach((result, index) => {
      const rank = index + 1;
      const key = normalizeUrl(result.url) ?? result.url;
      const candidate: Candidate = candidates.get(key) ?? {
        key,
        score: 0,
        bestRank: rank,
        best: result,
        links: [],
        sources: new Map(),
      };
      candidate.score += 1 / (RRF_K + rank);
      if (rank < candidate.bestRank) Object.assign(candidate, { bestRank: rank, best: result });
      candidate.links.push({ rank, url: result.url });
      for (const { provider, rank: found } of result.sources)
        candidate.sources.set(provider, Math.min(found, candidate.sources.get(provider) ?? found));
      candidates.set(key, candidate);
    });
  }
  return [...candidates.values()]
    .map((c) => ({ ...c, score: Math.round(c.score * 1e12) / 1e12 }))
    .sort((a, b) => b.score - a.score || a.bestRank - b.bestRank || compareStrings(a.key, b.key))
    .slice(0, maxResults)
    .map(({ best, links, score, sources }) => ({
      ...best,
      url: preferHttps(links.sort((a, b) => a.rank - b.rank).map((link) => link.url)) ?? best.url,
      score,
      sources: [...sources]
        .map(([provider, rank]) => ({ provider, rank }))
        .sort((a, b) => a.rank - b.rank || compareStrings(a.provider, b.provider)),
    }));
}

/**
 * The searches of one call as one search result: `results` as given (merged, or none), every provider's
 * answers counted together (results added, the longest duration), every failure, adjustment (each once) and
 * span, partial when
 * any search was, cached when every one was.
 */
export function combineSearches(searches: readonly SearchResult[], results: FusedResult[]): SearchResult {
  const succeeded = new Map<string, SearchResult["providers_succeeded"][number]>();
  for (const { provider, duration_ms, count } of searches.flatMap((s) => s.providers_succeeded)) {
    const earlier = succeeded.get(provider);
    succeeded.set(provider, {
      provider,
      duration_ms: Math.max(duration_ms, earlier?.duration_ms ?? 0),
      count: count + (earlier?.count ?? 0),
    });
  }
  return {
    query: searches.map((s) => s.query).join(" | "),
    results,
    providers_succeeded: [...succeeded.values()],
    providers_failed: searches.flatMap((s) => s.providers_failed),
    adjustments: uniqueAdjustments(searches.flatMap((s) => s.adjustments)),
    spans: searches.flatMap((s) => s.spans),
    partial: searches.some((s) => s.partial),
    cached: searches.every((s) => s.cached),
    duration_ms: Math.max(0, ...searches.map((s) => s.duration_ms)),
  };
}
