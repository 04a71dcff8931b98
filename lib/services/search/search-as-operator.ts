import { z } from "zod";
import { searchInputSchema } from "@/lib/engine/search/input";
import { runSearch } from "@/lib/engine/search/run-search";
import { searchProviders } from "@/lib/providers/search";
import type { VerbArgs } from "@/lib/services/context";
import { type OperatorContext, runOperatorCall } from "@/lib/services/operator-call";
import { operatorProviderEntries } from "@/lib/services/providers/operator-providers";
import { parseInput } from "@/lib/services/validate";

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
