/**
 * fetch's estimate (`estimate: true`): per URL, the steps its waterfall would try (the domain routes that
 * handle it, then the direct fetcher and the keyed providers cheapest first, as `planSteps` orders them),
 * every one counted as tried and billed; nothing is fetched.
 */

import type { FetchInput } from "@/lib/engine/fetch/input";
import { planSteps } from "@/lib/engine/fetch/run-fetch";
import type { FetchProviderEntry } from "@/lib/engine/fetch/types";
import { ladderOrder } from "@/lib/engine/shared/ladder";
import { priceOf } from "@/lib/engine/shared/price";
import { assertScope, type TenantContext, type VerbArgs } from "@/lib/pipeline/context";
import { addEstimates, askable, type CallEstimate, estimateOf } from "@/lib/pipeline/estimate";
import { selectedProviders } from "@/lib/pipeline/providers/tenant-providers";
import { parseInput } from "@/lib/pipeline/validate";
import { fetchProviders } from "@/lib/providers/fetch";
import { assertStepsAvailable } from "./fetch-document";
import { fetchToolInput } from "./fetch-page";

type Steps = Pick<FetchInput, "providers" | "skip_providers">;

/** The fetch steps a tenant's call may use now (its own selection: every available step, less skipped keys). */
export async function askableFetchSteps(ctx: TenantContext): Promise<FetchProviderEntry[]> {
  return askable(ctx, await selectedProviders(ctx, { registry: fetchProviders, tool: "fetch" }));
}

/**
 * The most one page can cost: the steps its URL would try, or for a page not known yet (a search result's)
 * the waterfall and the dearest domain route, when a route costs anything (YouTube's transcripts).
 */
export function pageEstimate(
  entries: readonly FetchProviderEntry[],
  url?: string,
  steps: Steps = {},
): CallEstimate {
  if (url !== undefined) return estimateOf(planSteps(entries, new URL(url), steps));
  const waterfall = ladderOrder(entries.filter((e) => e.provider.handles === undefined));
  const paidRoutes = entries
    .filter((e) => e.provider.handles !== undefined && priceOf(e).usd_per_request > 0)
    .sort((a, b) => priceOf(b).usd_per_request - priceOf(a).usd_per_request);
  return estimateOf([...paidRoutes.slice(0, 1), ...waterfall]);
}

export async function estimateFetch({
  ctx,
  input,
}: VerbArgs<TenantContext, typeof fetchToolInput>): Promise<CallEstimate> {
  assertScope(ctx, "fetch");
  const { url, urls, providers, skip_providers } = parseInput(fetchToolInput, input);
  const entries = await askableFetchSteps(ctx);
  assertStepsAvailable(providers, entries); // the call's own input errors
  const pages = urls ?? [url as string]; // the schema requires url or urls
  return addEstimates(...pages.map((page) => pageEstimate(entries, page, { providers, skip_providers })));
}
