import { z } from "zod";
import { searchInputSchema } from "../../engine/search/input";
import { runSearch } from "../../engine/search/run-search";
import { searchProviders } from "../../providers/search";
import { operatorProviderEntries } from "../providers/operator-providers";
import { selectProviders, throwIfNothingSucceeded } from "../providers/selection";
import { parseInput } from "../validate";

const KNOWN: ReadonlySet<string> = new Set(searchProviders.map((p) => p.id));

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
  ctx: { env: Readonly<Record<string, string | undefined>>; signal?: AbortSignal };
  input: z.input<typeof searchAsOperatorInput>;
}) {
  const { providers: wanted, ...engineInput } = parseInput(searchAsOperatorInput, input);
  const entries = selectProviders(wanted, KNOWN, operatorProviderEntries(searchProviders, ctx.env));
  const result = await runSearch({ input: engineInput, providers: entries, signal: ctx.signal });
  throwIfNothingSucceeded({
    succeeded: result.providers_succeeded.length,
    providers_failed: result.providers_failed,
  });
  return result;
}
