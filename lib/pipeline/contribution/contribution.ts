/**
 * What a workspace's recent full fan-outs say about each provider. Newer observations weigh more (half as
 * much every HALF_LIFE observations), so a provider whose results get better or worse shows it within a few
 * dozen full fan-outs, while the store keeps a bounded window of them (learner.ts).
 */
import { RRF_K } from "@/lib/engine/search/fusion";
import type { FanoutObservation } from "./observation";

/** Observations after which an observation counts half as much as the newest. */
export const HALF_LIFE_OBSERVATIONS = 16;
/** The fused results that count: the ten that nDCG@10, and most readers, look at. */
export const TOP_RESULTS = 10;

export interface WeightedObservation {
  observation: FanoutObservation;
  /** 1 for the newest, halving every HALF_LIFE_OBSERVATIONS. */
  weight: number;
}

export function recencyWeighted(observations: readonly FanoutObservation[]): WeightedObservation[] {
  const newest = Math.max(...observations.map((o) => o.seq));
  return observations.map((observation) => ({
    observation,
    weight: 2 ** (-(newest - observation.seq) / HALF_LIFE_OBSERVATIONS),
  }));
}

/** How much the fused result at `index` (0-based) matters: the DCG discount, 1 / log2(rank + 1). */
export const rankWeight = (index: number): number => 1 / Math.log2(index + 2);

/** A provider's vote for a page at `rank` (1-based) in Reciprocal Rank Fusion, as the engine fuses. */
export const rrfVote = (rank: number): number => 1 / (RRF_K + rank);

/** The observation's fused top pages over `providers`' lists: each page's finders, best first. */
function fusedTop(
  observation: FanoutObservation,
  providers: ReadonlySet<string>,
): Array<{ page: number; finders: string[] }> {
  const pages = new Map<number, { score: number; best: number; finders: string[] }>();
  for (const [provider, list] of Object.entries(observation.lists)) {
    if (!providers.has(provider)) continue;
    list.forEach((page, index) => {
      const entry = pages.get(page) ?? { score: 0, best: index, finders: [] };
      entry.score += rrfVote(index + 1);
      entry.best = Math.min(entry.best, index);
      entry.finders.push(provider);
      pages.set(page, entry);
    });
  }
  return [...pages]
    .sort(([pa, a], [pb, b]) => b.score - a.score || a.best - b.best || pa - pb)
    .slice(0, TOP_RESULTS)
    .map(([page, { finders }]) => ({ page, finders }));
}

export interface ProviderContribution {
  provider: string;
  /** Full fan-outs in the window that meant to call it (asked, or refused at admission). */
  observed: number;
  /** Of those, the ones that called it. */
  asked: number;
  /** Per search that called it (recency-weighted mean): fused top results it found. */
  topResults: number;
  /** Per search that called it: fused top results nobody else found. */
  onlySource: number;
}

/** Each provider seen in `observations`, by id order. */
export function providerContributions(observations: readonly FanoutObservation[]): ProviderContribution[] {
  const sums = new Map<
    string,
    { observed: number; asked: number; weight: number; top: number; only: number }
  >();
  const sumsOf = (provider: string) => {
    let sum = sums.get(provider);
    if (!sum) {
      sum = { observed: 0, asked: 0, weight: 0, top: 0, only: 0 };
      sums.set(provider, sum);
    }
    return sum;
  };
  for (const { observation, weight } of observations.length > 0 ? recencyWeighted(observations) : []) {
    const top = fusedTop(observation, new Set(observation.asked));
    for (const provider of observation.refused) sumsOf(provider).observed++;
    for (const provider of observation.asked) {
      const sum = sumsOf(provider);
      sum.observed++;
      sum.asked++;
      sum.weight += weight;
      for (const { finders } of top) {
        if (!finders.includes(provider)) continue;
        sum.top += weight;
        if (finders.length === 1) sum.only += weight;
      }
    }
  }
  return [...sums]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([provider, sum]) => ({
      provider,
      observed: sum.observed,
      asked: sum.asked,
      topResults: sum.weight > 0 ? sum.top / sum.weight : 0,
      onlySource: sum.weight > 0 ? sum.only / sum.weight : 0,
    }));
}
