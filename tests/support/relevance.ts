/**
 * Judging ranked results against graded relevance, for the relevance test and the auto-fanout bench: nDCG@k
 * and the seeded generator their corpora are drawn from.
 */
import { normalizeUrl } from "@/lib/engine/search/url";

/**
 * nDCG@k with gain 2^grade − 1 against `grades` (normalised URL → grade; unjudged pages count 0): a page
 * counts once (its first occurrence), URLs are judged by their normalised form, ideal = all judged pages.
 */
export function ndcgAt(k: number, urls: readonly string[], grades: ReadonlyMap<string, number>): number {
  const seen = new Set<string>();
  let dcg = 0;
  let position = 0;
  for (const url of urls) {
    const key = normalizeUrl(url) ?? url;
    if (seen.has(key)) continue;
    seen.add(key);
    position++;
    if (position > k) break;
    dcg += (2 ** (grades.get(key) ?? 0) - 1) / Math.log2(position + 1);
  }
  const ideal = [...grades.values()]
    .sort((a, b) => b - a)
    .slice(0, k)
    .reduce((sum, grade, i) => sum + (2 ** grade - 1) / Math.log2(i + 2), 0);
  return ideal === 0 ? 0 : dcg / ideal;
}

/** mulberry32: small, fast, deterministic; uniform in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
