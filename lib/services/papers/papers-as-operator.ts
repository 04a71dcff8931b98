import { paperSearchInputSchema } from "@/lib/engine/papers/input";
import { type PaperSearchResult, runPaperSearch } from "@/lib/engine/papers/run-paper-search";
import type { VerbArgs } from "@/lib/pipeline/context";
import { type OperatorContext, runOperatorCall } from "@/lib/pipeline/operator-call";
import { operatorProviderEntries, withPoliteMailto } from "@/lib/pipeline/providers/operator-providers";
import { parseInput } from "@/lib/pipeline/validate";
import { paperProviders } from "@/lib/providers/papers";

/**
 * A paper search with the operator's providers: all four work without keys; NCBI_API_KEY,
 * SEMANTIC_SCHOLAR_API_KEY and OPENALEX_API_KEY raise rate limits, OPENALEX_MAILTO joins OpenAlex's
 * polite pool, `<PROVIDER>_BASE_URL` overrides base URLs. What `npm run smx -- papers` runs.
 */
export async function papersAsOperator({
  ctx,
  input,
}: VerbArgs<OperatorContext, typeof paperSearchInputSchema>): Promise<PaperSearchResult> {
  const parsed = parseInput(paperSearchInputSchema, input);
  return runOperatorCall({
    tool: "paper",
    registry: paperProviders,
    available: withPoliteMailto(operatorProviderEntries(paperProviders, ctx.env), ctx.env),
    wanted: parsed.providers,
    run: (entries) => runPaperSearch({ input: parsed, providers: entries, signal: ctx.signal }),
    succeeded: (result) => result.providers_succeeded.length,
  });
}
