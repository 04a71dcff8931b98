/**
 * What each search provider adds to this workspace's fused results, as the auto mode measures it
 * (lib/pipeline/contribution): over its recent full fan-outs, how many of the fused top ten each provider
 * found per search, how many only it found, and so what one useful result of it costs. Any member or token
 * may read them (budget_status, the Budgets page): they are counts and prices, no query or page.
 */

import type { TenantContext } from "@/lib/pipeline/context";
import { MIN_OBSERVATIONS } from "@/lib/pipeline/contribution/auto-plan";
import { providerContributions } from "@/lib/pipeline/contribution/contribution";
import { priceWithOverrides } from "@/lib/pipeline/providers/prices";
import { getSearchProvider } from "@/lib/providers/search";

const round = (value: number, digits: number) => Number(value.toFixed(digits));

export async function searchContributions({ ctx }: { ctx: TenantContext }) {
  const observations = await ctx.learner.observations(ctx);
  return {
    observations: observations.length,
    providers: providerContributions(observations).map((c) => {
      const listed = getSearchProvider(c.provider)?.price;
      const cost = listed ? priceWithOverrides(listed, ctx.env).usd_per_request : 0;
      return {
        provider: c.provider,
        searches: c.asked,
        top_results_per_search: round(c.topResults, 2),
        only_source_per_search: round(c.onlySource, 2),
        cost_per_useful_result_usd: cost === 0 ? 0 : c.topResults > 0 ? round(cost / c.topResults, 6) : null,
        measured: c.observed >= MIN_OBSERVATIONS,
      };
    }),
  };
}
