import { z } from "zod";
import { searchInputSchema } from "@/lib/engine/search/input";
import { runSearch } from "@/lib/engine/search/run-search";
import type { VerbArgs } from "@/lib/pipeline/context";
import { type OperatorContext, runOperatorCall } from "@/lib/pipeline/operator-call";
import { operatorProviderEntries } from "@/lib/pipeline/providers/operator-providers";
import { parseInput } from "@/lib/pipeline/validate";
import { searchProviders } from "@/lib/providers/search";

export const searchAsOperatorInput = searchInputSchema.extend({
  providers: z.array(z.string().toLowerCase()).max(50).optional(),
});

/**
 * A web search with the operator's providers only (keyless ones and keys from the environment), no
 * tenant, budget or cache: what `npm run smx -- search` runs.
 */
export async function searchAsOperator({
  ctx,
  input,
}: VerbArgs<OperatorContext, typeof searchAsOperatorInput>) {
  const { providers: wanted, ...engineInput } = parseInput(searchAsOperatorInput, input);
  return runOperatorCall({
    tool: "search",
    registry: searchProviders,
    available: operatorProviderEntries(searchProviders, ctx.env),
    wanted,
    run: (entries) => runSearch({ input: engineInput, providers: entries, signal: ctx.signal }),
    succeeded: (result) => result.providers_succeeded.length,
  });
}
