import { z } from "zod";
import { searchInputSchema } from "../../engine/search/input";
import { runSearch } from "../../engine/search/run-search";
import { searchProviders } from "../../providers/search";
import { type OperatorContext, runOperatorCall } from "../operator-call";
import { operatorProviderEntries } from "../providers/operator-providers";
import { parseInput } from "../validate";

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
}: {
  ctx: OperatorContext;
  input: z.input<typeof searchAsOperatorInput>;
}) {
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
