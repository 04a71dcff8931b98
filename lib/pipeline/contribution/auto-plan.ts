/**
 * The auto mode's choice of providers for one search of a workspace: every free provider, and the fewest
 * paid ones whose fused results, over the workspace's recent full fan-outs, keep KEEP_SHARE of the full
 * fan-out's quality.
 *
 * Quality is judged without relevance labels, the way fusion itself judges: a page's relevance is taken to
 * be its fused score in the full fan-out (Σ 1/(k + rank) over every provider that listed it). A set of
 * providers is scored by fusing each observed search again over only their lists, as the engine would,
 * and taking nDCG@10 of that list against those scores (the full fan-out's own list scores 1). Leaving out a
 * provider that agrees with the others changes little; leaving out one whose pages only it ranks high loses
 * them, and the pages that move up in their place, which fewer providers vouch for, are worth less.
 *
 * The search asks everyone instead when the learner explores (a share of searches, to keep the estimates
 * fresh and let a left-out provider come back) and while any paid provider has been observed in fewer than
 * MIN_OBSERVATIONS full fan-outs (one not measured yet is never left out).
 */
import { priceOf } from "@/lib/engine/shared/price";
import type { ProviderRegistration, ResolvedProvider } from "@/lib/engine/shared/types";
import { rankWeight, recencyWeighted, rrfVote, TOP_RESULTS } from "./contribution";
import type { FanoutObservation } from "./observation";

/**
 * Full fan-outs a paid provider must have been part of before auto may leave it out: with ten results
 * each, enough for the share a set keeps to be known to about a percentage point.
 */
export const MIN_OBSERVATIONS = 16;

/** The share of the full fan-out's nDCG@10 (as estimated above) the chosen providers must keep. */
const KEEP_SHARE = 0.98;

/** Sets of paid providers tried, smallest first, before the best so far is grown one provider at a time. */
const MAX_TRIED_SETS = 400;

export type AutoBasis =
  /** The chosen providers (possibly all of them). */
  | "planned"
  /** Everyone: this search keeps the estimates fresh. */
  | "explore"
  /** Everyone: a paid provider has not been measured enough yet. */
  | "measuring";

export interface AutoPlan<E> {
  call: E[];
  skipped: Array<{ provider: string; reason: "low_contribution" }>;
  basis: AutoBasis;
}

interface PlanArgs<E> {
  entries: readonly E[];
  observations: readonly FanoutObservation[];
  /** Providers whose answer to this very search is kept: asking them costs nothing. */
  free: ReadonlySet<string>;
  explore: boolean;
}

/** One observed search, ready to be fused again: each provider's votes by page, and each page's worth. */
interface Case {
  weight: number;
  votes: Map<string, Float64Array>;
  worth: Float64Array;
  /** DCG@10 of the full fan-out's list (the pages by worth). */
  ideal: number;
}

const SAME = 1e-9;

export function planAutoFanout<E extends ResolvedProvider<ProviderRegistration>>(
  args: PlanArgs<E>,
): AutoPlan<E> {
  const { entries, observations, free } = args;
  const isPaid = (e: E) => priceOf(e).usd_per_request > 0 && !free.has(e.provider.id);
  const paid = entries.filter(isPaid);
  const everyone: AutoPlan<E> = { call: [...entries], skipped: [], basis: "planned" };
  if (paid.length === 0) return everyone;
  if (args.explore) return { ...everyone, basis: "explore" };
  const observed = new Map<string, number>();
  for (const o of observations)
    for (const id of [...o.asked, ...o.refused]) observed.set(id, (observed.get(id) ?? 0) + 1);
  if (paid.some((e) => (observed.get(e.provider.id) ?? 0) < MIN_OBSERVATIONS))
    return { ...everyone, basis: "measuring" };

  const costOf = new Map(paid.map((e) => [e.provider.id, priceOf(e).usd_per_request]));
  const freeIds = entries.filter((e) => !isPaid(e)).map((e) => e.provider.id);
  const cases = casesOf(observations, new Set(entries.map((e) => e.provider.id)));
  const chosen = chooseProviders(cases, costOf, freeIds);
  return {
    call: entries.filter((e) => !isPaid(e) || chosen.has(e.provider.id)),
    skipped: paid
      .filter((e) => !chosen.has(e.provider.id))
      .map((e) => ({ provider: e.provider.id, reason: "low_contribution" as const })),
    basis: "planned",
  };
}

/** The observations as cases over today's providers (lists of providers gone since are left out). */
function casesOf(observations: readonly FanoutObservation[], today: ReadonlySet<string>): Case[] {
  const weighted = observations.length > 0 ? recencyWeighted(observations) : [];
  return weighted.flatMap(({ observation, weight }) => {
    const lists = Object.entries(observation.lists).filter(([provider]) => today.has(provider));
    const pages = Math.max(0, ...lists.flatMap(([, list]) => list.map((page) => page + 1)));
    const votes = new Map<string, Float64Array>();
    const worth = new Float64Array(pages);
    for (const [provider, list] of lists) {
      const own = new Float64Array(pages);
      list.forEach((page, index) => {
        own[page] = rrfVote(index + 1);
        worth[page] = (worth[page] ?? 0) + rrfVote(index + 1);
      });
      votes.set(provider, own);
    }
    const ideal = dcgOfTop(worth, worth);
    return ideal > 0 ? [{ weight, votes, worth, ideal }] : [];
  });
}

/** DCG@10 of the pages ordered by `score` (best first, ties by page number), each worth `worth`. */
function dcgOfTop(score: Float64Array, worth: Float64Array): number {
  const taken = new Uint8Array(score.length);
  let dcg = 0;
  for (let position = 0; position < TOP_RESULTS; position++) {
    let best = -1;
    for (let page = 0; page < score.length; page++) {
      if (taken[page] || (score[page] ?? 0) <= 0) continue;
      if (best < 0 || (score[page] ?? 0) > (score[best] ?? 0)) best = page;
    }
    if (best < 0) break;
    taken[best] = 1;
    dcg += (worth[best] ?? 0) * rankWeight(position);
  }
  return dcg;
}

/** A case's nDCG@10 fused over only `asked`'s lists. */
function caseQuality({ votes, worth, ideal }: Case, asked: readonly string[]): number {
  const score = new Float64Array(worth.length);
  for (const provider of asked) {
    const own = votes.get(provider);
    if (own)
      for (let page = 0; page < own.length; page++) score[page] = (score[page] ?? 0) + (own[page] ?? 0);
  }
  return dcgOfTop(score, worth) / ideal;
}

/** What `asked` keeps of the full fan-out's quality: the recency-weighted mean over the cases. */
function keptShare(cases: readonly Case[], asked: readonly string[]): number {
  let kept = 0;
  let total = 0;
  for (const c of cases) {
    kept += c.weight * caseQuality(c, asked);
    total += c.weight;
  }
  return total > 0 ? kept / total : 1;
}

/**
 * The fewest paid providers that keep KEEP_SHARE, the one keeping most (then the cheapest) among sets of
 * that size: every set of one provider, then of two, … while that stays within MAX_TRIED_SETS; past that,
 * the best set so far grows by the provider that keeps most until enough is kept. No paid provider when the
 * free ones keep enough; at least one when there are none.
 */
function chooseProviders(
  cases: readonly Case[],
  costOf: ReadonlyMap<string, number>,
  freeIds: readonly string[],
): Set<string> {
  const paid = [...costOf.keys()].sort();
  const keeps = (set: readonly string[]) => keptShare(cases, [...freeIds, ...set]);
  const costOfSet = (set: readonly string[]) => set.reduce((sum, id) => sum + (costOf.get(id) ?? 0), 0);
  if (freeIds.length > 0 && keeps([]) >= KEEP_SHARE - SAME) return new Set();
  let best = { set: [] as string[], kept: -1 };
  let tried = 0;
  for (let size = 1; size <= paid.length; size++) {
    tried += combinations(paid.length, size);
    if (tried > MAX_TRIED_SETS) break;
    best = { set: [], kept: -1 };
    for (const set of subsetsOf(paid, size)) {
      const kept = keeps(set);
      if (kept > best.kept + SAME || (kept > best.kept - SAME && costOfSet(set) < costOfSet(best.set)))
        best = { set, kept };
    }
    if (best.kept >= KEEP_SHARE - SAME) return new Set(best.set);
  }
  const grown = [...best.set];
  while (grown.length < paid.length && keeps(grown) < KEEP_SHARE - SAME) {
    const candidates = paid
      .filter((id) => !grown.includes(id))
      .map((id) => ({ id, kept: keeps([...grown, id]) }));
    const next = candidates.reduce((a, b) => (b.kept > a.kept + SAME ? b : a));
    grown.push(next.id);
  }
  return new Set(grown);
}

function combinations(n: number, k: number): number {
  let count = 1;
  for (let i = 1; i <= k; i++) count = (count * (n - k + i)) / i;
  return Math.round(count);
}

/** Every `size`-element subset of `items`, in order. */
function* subsetsOf<T>(items: readonly T[], size: number, from = 0): Generator<T[]> {
  if (size === 0) {
    yield [];
    return;
  }
  for (let i = from; i <= items.length - size; i++) {
    for (const rest of subsetsOf(items, size - 1, i + 1)) yield [items[i] as T, ...rest];
  }
}
