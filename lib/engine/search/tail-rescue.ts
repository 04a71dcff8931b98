/**
 * Tail rescue: RRF favours pages several providers agree on, which can fill the top N with one site
 * while a page from another site that some provider ranked near the top falls just below the cut.
 *
 * Exact rule, applied to the fused list sorted best first, with N = max_results:
 * 1. Rescue candidates are the results below the top N whose site (registrable domain, see siteOf)
 *    does not occur in the top N and whose best rank in any provider is ≤ `rescueRank`; only the
 *    first (best-scored) candidate per site counts.
 * 2. Victims are top-N results whose site occurs more than once in the top N, lowest-scored first;
 *    a site always keeps at least one result (its count is updated after each swap).
 * 3. Candidates and victims are paired in order until either runs out; each pair swaps.
 * 4. The list keeps N results: the surviving top-N results in their order, then the rescued ones in
 *    their fused order (their scores are lower than everything kept, so the order stays by score).
 */
import { siteOf } from "./domains";

export interface RescueItem {
  host: string;
  /** Best (lowest) rank this result had in any provider's list. */
  bestRank: number;
}

export const RESCUE_RANK = 3;

export function rescueTail<T extends RescueItem>(
  ranked: readonly T[],
  size: number,
  rescueRank = RESCUE_RANK,
): T[] {
  const top = ranked.slice(0, size);
  if (ranked.length <= size) return top;

  const topSites = top.map((item) => siteOf(item.host));
  const siteCounts = new Map<string, number>();
  for (const site of topSites) siteCounts.set(site, (siteCounts.get(site) ?? 0) + 1);

  const rescued: T[] = [];
  const rescuedSites = new Set<string>();
  const removed = new Set<number>();
  let victimCursor = top.length - 1;

  for (let i = size; i < ranked.length; i++) {
    const candidate = ranked[i];
    if (candidate === undefined || candidate.bestRank > rescueRank) continue;
    const site = siteOf(candidate.host);
    if (siteCounts.has(site) || rescuedSites.has(site)) continue;

    victimCursor = findVictim(topSites, siteCounts, victimCursor);
    if (victimCursor < 0) break;
    const victimSite = topSites[victimCursor] ?? "";
    siteCounts.set(victimSite, (siteCounts.get(victimSite) ?? 0) - 1);
    removed.add(victimCursor);
    victimCursor--;
    rescued.push(candidate);
    rescuedSites.add(site);
  }

  if (rescued.length === 0) return top;
  return [...top.filter((_, index) => !removed.has(index)), ...rescued];
}

/** Index of the lowest-scored top result (at or above `from`) whose site still has a duplicate; -1 if none. */
function findVictim(
  topSites: readonly string[],
  siteCounts: ReadonlyMap<string, number>,
  from: number,
): number {
  for (let index = from; index >= 0; index--) {
    if ((siteCounts.get(topSites[index] ?? "") ?? 0) > 1) return index;
  }
  return -1;
}
