/**
 * Reciprocal Rank Fusion over normalised URLs: score = Σ 1/(k + rank), k = 60, one term per provider
 * that listed the page (rank = its position in that provider's list).
 *
 * Order: score descending; ties by best single rank, then by number of providers, then by the
 * normalised URL, so equal inputs always give the same order. Scores are rounded to 12 decimals
 * before comparing, so sums that differ only by floating-point association still tie.
 *
 * Per fused result: `url` is the best-ranked provider's URL without tracking parameters and fragment
 * (not the normalised key: it folds www. and http variants that do not always resolve), the best-ranked
 * https one when the page came over both schemes (url.ts, preferHttps); `title` is the
 * best-ranked title that is neither empty, a bare URL, nor cut off ("…") when an uncut one exists;
 * `snippet` is the collapse of all providers' snippets (snippets.ts); `publishedAt` and `source` (the
 * publisher) are the best-ranked provider's that gave one; `sources` are sorted by rank,
 * then provider id. Tail rescue (tail-rescue.ts) picks the final N.
 */
import type { RankedResult } from "./ranked-results";
import { collapseSnippets } from "./snippets";
import { RESCUE_RANK, rescueTail } from "./tail-rescue";
import { compareStrings, isCutOff } from "./text";
import type { FusedResult } from "./types";
import { preferHttps } from "./url";

export const RRF_K = 60;

export interface FusionOptions {
  maxResults: number;
  /** Content words of the query, for snippet scoring. */
  queryTerms: ReadonlySet<string>;
  /** Best provider rank that qualifies a tail result for rescue (tail-rescue.ts); default RESCUE_RANK. */
  rescueRank?: number;
}

interface Candidate {
  key: string;
  host: string;
  score: number;
  bestRank: number;
  hits: RankedResult[];
}

export function fuseResults(
  lists: ReadonlyArray<readonly RankedResult[]>,
  options: FusionOptions,
): FusedResult[] {
  const candidates = new Map<string, Candidate>();
  for (const list of lists) {
    for (const hit of list) {
      const candidate = candidates.get(hit.key);
      if (candidate === undefined) {
        candidates.set(hit.key, {
          key: hit.key,
          host: hit.host,
          score: 1 / (RRF_K + hit.rank),
          bestRank: hit.rank,
          hits: [hit],
        });
      } else {
        candidate.score += 1 / (RRF_K + hit.rank);
        candidate.bestRank = Math.min(candidate.bestRank, hit.rank);
        candidate.hits.push(hit);
      }
    }
  }

  const ranked = [...candidates.values()];
  for (const candidate of ranked) candidate.score = roundScore(candidate.score);
  ranked.sort(compareCandidates);

  const chosen = rescueTail(ranked, options.maxResults, options.rescueRank ?? RESCUE_RANK);
  return chosen.map((candidate) => toFusedResult(candidate, options));
}

function compareCandidates(a: Candidate, b: Candidate): number {
  return (
    b.score - a.score ||
    a.bestRank - b.bestRank ||
    b.hits.length - a.hits.length ||
    compareStrings(a.key, b.key)
  );
}

function toFusedResult(candidate: Candidate, options: FusionOptions): FusedResult {
  const hits = [...candidate.hits].sort((a, b) => a.rank - b.rank || compareStrings(a.provider, b.provider));
  const fused: FusedResult = {
    title: chooseTitle(hits),
    url: preferHttps(hits.map((hit) => hit.link)) ?? candidate.key,
    snippet: collapseSnippets(
      hits.map((hit) => hit.result.snippet),
      options.queryTerms,
    ),
    score: candidate.score,
    sources: hits.map((hit) => ({ provider: hit.provider, rank: hit.rank })),
    snippet_source: "aggregated",
  };
  const publishedAt = hits.find((hit) => hit.result.publishedAt)?.result.publishedAt;
  if (publishedAt !== undefined) fused.publishedAt = publishedAt;
  const source = hits.find((hit) => hit.result.source)?.result.source;
  if (source !== undefined) fused.source = source;
  return fused;
}

/** `hits` sorted best first. */
function chooseTitle(hits: readonly RankedResult[]): string {
  const titles = hits
    .map((hit) => hit.result.title.trim())
    .filter((title) => title !== "" && !/^https?:\/\//i.test(title));
  return titles.find((title) => !isCutOff(title)) ?? titles[0] ?? hits[0]?.result.url ?? "";
}

function roundScore(score: number): number {
  return Math.round(score * 1e12) / 1e12;
}
