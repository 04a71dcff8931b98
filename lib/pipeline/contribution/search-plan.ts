/**
 * Whom a web_search asks, and what the learner takes from it. In auto mode the planner (auto-plan.ts)
 * chooses from the workspace's observations, read only here, after the call missed the cache; every other
 * mode asks every provider the call may use. A fresh full fan-out of the workspace's own providers (fanout,
 * or auto when it asked everyone) is recorded after the response.
 */
import type { SearchMode } from "@/lib/engine/search/input";
import type { ProviderRanking } from "@/lib/engine/search/run-search";
import type { ProviderFailure, ProviderRegistration, ResolvedProvider } from "@/lib/engine/shared/types";
import type { TenantContext } from "@/lib/pipeline/context";
import { type AutoBasis, type AutoPlan, planAutoFanout } from "./auto-plan";
import { type FanoutObservation, observeFanout } from "./observation";

export type SearchPlan<E> = AutoPlan<E> & { mode: SearchMode };

/**
 * Plans already made from one set of observations, by the providers they chose among: the learner hands
 * out the same array until its observations change, so a plan is worked out once per change.
 */
const planned = new WeakMap<readonly FanoutObservation[], Map<string, ReadonlySet<string>>>();

/** The providers to ask of `entries`; `answered` are those whose answer to this search is kept (free). */
export async function planSearch<E extends ResolvedProvider<ProviderRegistration>>(
  ctx: TenantContext,
  { mode, entries, answered }: { mode: SearchMode; entries: readonly E[]; answered: ReadonlySet<string> },
): Promise<SearchPlan<E>> {
  if (mode !== "auto") return { mode, call: [...entries], skipped: [], basis: "planned" };
  const observations = await ctx.learner.observations(ctx);
  const explore = ctx.learner.explores();
  const choice = `${entries.map((e) => e.provider.id).join(",")}|${[...answered].sort().join(",")}`;
  const skipped = explore ? undefined : planned.get(observations)?.get(choice);
  if (skipped) {
    return {
      mode,
      call: entries.filter((e) => !skipped.has(e.provider.id)),
      skipped: [...skipped].map((provider) => ({ provider, reason: "low_contribution" as const })),
      basis: "planned",
    };
  }
  const plan = planAutoFanout({ entries, observations, free: answered, explore });
  if (plan.basis === "planned") {
    const byChoice = planned.get(observations) ?? new Map<string, ReadonlySet<string>>();
    byChoice.set(choice, new Set(plan.skipped.map((s) => s.provider)));
    planned.set(observations, byChoice);
  }
  return { mode, ...plan };
}

/** Why an auto search asked whom it asked (the trace's summary); undefined in the other modes. */
export const autoBasis = (plan: SearchPlan<unknown>): AutoBasis | undefined =>
  plan.mode === "auto" ? plan.basis : undefined;

/**
 * Records the search when it was a fresh full fan-out: fanout or auto mode over every provider of the
 * workspace (no `providers` subset), none left out, none answered from a kept answer.
 */
export function learnFromSearch(
  ctx: TenantContext,
  plan: SearchPlan<ResolvedProvider<ProviderRegistration>>,
  call: {
    subset: boolean;
    keptAnswers: number;
    failures: readonly Pick<ProviderFailure, "provider" | "reason">[];
    rankings: readonly ProviderRanking[];
  },
): void {
  const full = (plan.mode === "fanout" || plan.mode === "auto") && plan.skipped.length === 0;
  if (!full || call.subset || call.keptAnswers > 0) return;
  const providers = plan.call.map((e) => e.provider.id);
  ctx.learner.record(ctx, observeFanout(providers, call.failures, call.rankings));
}
