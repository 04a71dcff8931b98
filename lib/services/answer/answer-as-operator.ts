import { answerInputSchema } from "@/lib/engine/answer/input";
import { type AnswerResult, runAnswer } from "@/lib/engine/answer/run-answer";
import type { GroundingSearch } from "@/lib/engine/answer/types";
import type { Env, VerbArgs } from "@/lib/pipeline/context";
import { type OperatorContext, runOperatorCall } from "@/lib/pipeline/operator-call";
import { operatorProviderEntries, withOperatorModel } from "@/lib/pipeline/providers/operator-providers";
import { parseInput } from "@/lib/pipeline/validate";
import { answerProviders } from "@/lib/providers/answer";
import { searchAsOperator } from "@/lib/services/search/search-as-operator";

const GROUNDING_RESULTS = 10;

/**
 * Answers with the operator's providers only (answer providers whose key is in the environment, plus
 * `llm` when SEARCHMUX_LLM_BASE_URL and SEARCHMUX_LLM_MODEL are set), grounded providers fed by the
 * operator's own web search; no tenant, budget or cache: what `npm run smx -- answer` runs.
 */
export async function answerAsOperator({
  ctx,
  input,
}: VerbArgs<OperatorContext, typeof answerInputSchema>): Promise<AnswerResult> {
  const parsed = parseInput(answerInputSchema, input);
  return runOperatorCall({
    tool: "answer",
    registry: answerProviders,
    available: withOperatorModel(operatorProviderEntries(answerProviders, ctx.env), ctx.env),
    wanted: parsed.providers,
    run: (entries) =>
      runAnswer({
        input: parsed,
        providers: entries,
        signal: ctx.signal,
        groundingSearch: operatorGroundingSearch(ctx.env),
      }),
    succeeded: (result) => result.answers.length,
  });
}

/** The operator's web search (keyless providers at least), top results as grounding sources. */
function operatorGroundingSearch(env: Env): GroundingSearch {
  return async (query, signal) => {
    const search = await searchAsOperator({
      ctx: { env, signal },
      input: { query, max_results: GROUNDING_RESULTS },
    });
    return search.results.map((r) => ({ url: r.url, title: r.title, snippet: r.snippet }));
  };
}
