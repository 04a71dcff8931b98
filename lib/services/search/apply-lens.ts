import { type SearchInput, searchInputSchema } from "@/lib/engine/search/input";
import { parseInput } from "@/lib/pipeline/validate";
import type { Lens } from "@/lib/services/lenses/lens";

/**
 * A search scoped by a lens: its domains join the call's include_domains (so the engine applies them
 * natively, as site: operators or as a post-filter, per provider), its defaults fill options the call
 * left unset. Too many domains together are an input error.
 */
export function applyLens(input: SearchInput, lens: Lens): SearchInput {
  return parseInput(searchInputSchema, {
    ...input,
    include_domains: [...lens.domains, ...input.include_domains],
    time_range: input.time_range ?? lens.defaults.time_range,
    region: input.region ?? lens.defaults.region,
    safesearch: input.safesearch ?? lens.defaults.safesearch,
  });
}
