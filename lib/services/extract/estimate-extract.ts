/**
 * extract's estimate (`estimate: true`): per URL, every extractor counted as tried and billed — Firecrawl's
 * price a page, and for the model the page's fetch steps plus two calls (the first and its repair) at the
 * most one can be reserved at; nothing is fetched or called.
 */
import { modelCallCeilingMicros } from "@/lib/engine/extract/extract-page";
import { assertScope, type TenantContext, type VerbArgs } from "@/lib/pipeline/context";
import { addEstimates, askable, type CallEstimate, estimateOf, repeated } from "@/lib/pipeline/estimate";
import { selectedProviders } from "@/lib/pipeline/providers/tenant-providers";
import { parseInput } from "@/lib/pipeline/validate";
import { extractProviders } from "@/lib/providers/extract";
import { askableFetchSteps, pageEstimate } from "@/lib/services/fetch/estimate-fetch";
import { readyExtractors } from "./extract";
import { compiledOutputSchema, extractToolInput } from "./input";

/** A model call and its repair. */
const MODEL_CALLS_PER_PAGE = 2;

export async function estimateExtract({
  ctx,
  input,
}: VerbArgs<TenantContext, typeof extractToolInput>): Promise<CallEstimate> {
  assertScope(ctx, "fetch");
  const parsed = parseInput(extractToolInput, input);
  // An estimate refuses what the call would refuse: a schema that does not compile (in a worker, kept).
  await compiledOutputSchema(parsed.schema, "schema");
  const selected = await selectedProviders(ctx, {
    registry: extractProviders,
    wanted: parsed.providers,
    tool: "extract",
  });
  const extractors = readyExtractors(ctx, await askable(ctx, selected));
  const fetchSteps = await askableFetchSteps(ctx);
  const schemaChars = JSON.stringify(parsed.schema).length;
  const perUrl = (url: string) =>
    addEstimates(
      ...extractors.map((entry) => {
        if (entry.provider.reads === "url") return estimateOf([entry]);
        const calls = {
          providers: [entry.provider.id],
          maxCostMicros: entry.price
            ? modelCallCeilingMicros(entry.price, schemaChars, parsed.prompt?.length ?? 0)
            : 0,
        };
        return addEstimates(pageEstimate(fetchSteps, url), repeated(calls, MODEL_CALLS_PER_PAGE));
      }),
    );
  return addEstimates(...[...new Set(parsed.urls)].map(perUrl));
}
