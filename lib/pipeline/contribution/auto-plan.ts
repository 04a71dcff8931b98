/**
 * The auto mode's choice of providers for one search of a workspace: every free provider, and the smallest
 * set of paid ones that, over the workspace's recent full fan-outs, found at least KEEP_SHARE of what the
 * full fan-out's fused top results were worth. A result's worth is its DCG discount (rank 1 counts most) and
 * it is kept when any chosen provider found it, so providers that find the same pages (results several
 * engines agree on) stand in for each other, and a provider is needed for what only it finds.
 *
 * The search asks everyone instead when the learner explores (a share of searches, to keep the estimates
 * fresh and give a skipped provider the chance to come back) and while any paid provider has been observed
 * in fewer than MIN_OBSERVATIONS full fan-outs (one not measured yet is never left out).
 */
import type { ProviderRegistration, ResolvedProvider } from "@/lib/engine/shared/types";
import { rankWeight, recencyWeighted } from "./contribution";
import type { FanoutObservation } from "./observation";

/** Full fan-outs a paid provider must have been part of before auto may leave it out. */
export const MIN_OBSERVATIONS = 8;

/**
 * The share of the full fan-out's top results (by rank-discounted worth) the chosen providers must have
 * found. The estimate is conservative: a page lost counts as a total loss although the next page moves up
 * in its place, often as good, and a lost page that was irrelevant costs nothing.
 */
export const KEEP_SHARE = 0.95;

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

/** A fused result none of the free providers found: which paid ones did, and what it was worth. */
interface Contested {
  finders: readonly string[];
  worth: number;
}

const SAME = 1e-9;

export function planAutoFanout<E extends ResolvedProvider<ProviderRegistration>>(
  args: PlanArgs<E>,
): AutoPlan<E> {
  const { entries, observations, free } = args;
  const isPaid = (e: E) => e.provider.costPerRequestUsd > 0 && !free.has(e.provider.id);
  const paid = entries.filter(isPaid);
  const everyone: AutoPlan<E> = { call: [...entries], skipped: [], basis: "planned" };
  if (paid.length === 0) return everyone;
  if (args.explore) return { ...everyone, basis: "explore" };
  const observed = new Map<string, number>();
  for (const o of observations)
    for (const id of [...o.asked, ...o.refused]) observed.set(id, (observed.get(id) ?? 0) + 1);
  if (paid.some((e) => (observed.get(e.provider.id) ?? 0) < MIN_OBSERVATIONS))
    return { ...everyone, basis: "measuring" };

  const costOf = new Map(paid.map((e) => [e.provider.id, e.provider.costPerRequestUsd]));
  const freeIds = new Set(entries.filter((e) => !isPaid(e)).map((e) => e.provider.id));
  const { contested, total, keptByFree } = worthOfResults(observations, costOf, freeIds);
  const chosen = chooseProviders(contested, costOf, KEEP_SHARE * total - keptByFree);
  // Someone must be asked: with no free provider, the paid one that found the most (or the cheapest).
  if (freeIds.size === 0 && chosen.size === 0) chosen.add(bestAlone(contested, costOf));
  return {
    call: entries.filter((e) => !isPaid(e) || chosen.has(e.provider.id)),
    skipped: paid
      .filter((e) => !chosen.has(e.provider.id))
      .map((e) => ({ provider: e.provider.id, reason: "low_contribution" as const })),
    basis: "planned",
  };
}

/** The fused top results of the observations, as far as today's providers found them. */
function worthOfResults(
  observations: readonly FanoutObservation[],
  paid: ReadonlyMap<string, number>,
  free: ReadonlySet<string>,
): { contested: Contested[]; total: number; keptByFree: number } {
  const contested: Contested[] = [];
  let total = 0;
  let keptByFree = 0;
  for (const { observation, weight } of observations.length > 0 ? recencyWeighted(observations) : []) {
    observation.top.forEach((sources, index) => {
      const finders = sources.filter((id) => paid.has(id) || free.has(id));
      // Found only by providers this workspace no longer has: no choice of today's keeps or loses it.
      if (finders.length === 0) return;
      const worth = weight * rankWeight(index);
      total += worth;
      if (finders.some((id) => free.has(id))) keptByFree += worth;
      else contested.push({ finders, worth });
    });
  }
  return { contested, total, keptByFree };
}

/**
 * Greedy cover: the provider that keeps the most not yet kept worth (the cheaper of equals) until `needed`
 * is kept, then any chosen one the rest can do without is dropped again, the dearest first.
 */
function chooseProviders(
  contested: readonly Contested[],
  costOf: ReadonlyMap<string, number>,
  needed: number,
): Set<string> {
  const chosen = new Set<string>();
  const isKept = (item: Contested) => item.finders.some((id) => chosen.has(id));
  let kept = 0;
  while (kept < needed - SAME) {
    let best: { id: string; gain: number } | undefined;
    for (const id of costOf.keys()) {
      if (chosen.has(id)) continue;
      const gain = sumWorth(contested, (item) => !isKept(item) && item.finders.includes(id));
      if (!best || gain > best.gain + SAME || (gain > best.gain - SAME && cheaper(id, best.id, costOf)))
        best = { id, gain };
    }
    if (!best || best.gain <= SAME) break;
    chosen.add(best.id);
    kept += best.gain;
  }
  const dearestFirst = [...chosen].sort((a, b) => (cheaper(a, b, costOf) ? 1 : -1));
  for (const id of dearestFirst) {
    const onlyThis = sumWorth(contested, (item) => {
      const keepers = item.finders.filter((finder) => chosen.has(finder));
      return keepers.length === 1 && keepers[0] === id;
    });
    if (kept - onlyThis >= needed - SAME) {
      chosen.delete(id);
      kept -= onlyThis;
    }
  }
  return chosen;
}

function bestAlone(contested: readonly Contested[], costOf: ReadonlyMap<string, number>): string {
  let best: { id: string; worth: number } | undefined;
  for (const id of costOf.keys()) {
    const worth = sumWorth(contested, (item) => item.finders.includes(id));
    if (!best || worth > best.worth + SAME || (worth > best.worth - SAME && cheaper(id, best.id, costOf)))
      best = { id, worth };
  }
  return (best as { id: string }).id;
}

const sumWorth = (items: readonly Contested[], include: (item: Contested) => boolean): number =>
  items.reduce((sum, item) => (include(item) ? sum + item.worth : sum), 0);

/** Cheaper, or as cheap and first by id: a fixed order, so equal inputs choose alike. */
function cheaper(a: string, b: string, costOf: ReadonlyMap<string, number>): boolean {
  const [costA, costB] = [costOf.get(a) ?? 0, costOf.get(b) ?? 0];
  return costA < costB || (costA === costB && a < b);
}
