import type { z } from "zod";
import { answerInputSchema } from "../../engine/answer/input";
import { type AnswerResult, runAnswer } from "../../engine/answer/run-answer";
import type { AnswerEntry, GroundingSearch } from "../../engine/answer/types";
import { answerProviders } from "../../providers/answer";
import { OPERATOR_LLM_MODEL_ENV } from "../../providers/answer/openai-compatible";
import { operatorProviderEntries } from "../providers/operator-providers";
import { selectProviders, throwIfNothingSucceeded } from "../providers/selection";
import { searchAsOperator } from "../search/search-as-operator";
import { parseInput } from "../validate";

type Env = Readonly<Record<string, string | undefined>>;

const GROUNDING_RESULTS = 10;
const KNOWN: ReadonlySet<string> = new Set(answerProviders.map((p) => p.id));

/**
 * Answers with the operator's providers only (answer providers whose key is in the environment, plus
 * `llm` when SEARCHMUX_LLM_BASE_URL and SEARCHMUX_LLM_MODEL are set), grounded providers fed by the
 * operator's own web search; no tenant, budget or cache: what `npm run smx -- answer` runs.
 */
export async function answerAsOperator({
  ctx,
  input,
}: {
  ctx: { env: Env; signal?: AbortSignal };
  input: z.input<typeof answerInputSchema>;
}): Promise<AnswerResult> {
  const parsed = parseInput(answerInputSchema, input);
  const entries = selectProviders(parsed.providers, KNOWN, operatorAnswerEntries(ctx.env), "answer");
  const result = await runAnswer({
    input: parsed,
    providers: entries,
    signal: ctx.signal,
    groundingSearch: operatorGroundingSearch(ctx.env),
  });
  throwIfNothingSucceeded({ succeeded: result.answers.length, providers_failed: result.providers_failed });
  return result;
}

function operatorAnswerEntries(env: Env): AnswerEntry[] {
  return withOperatorModel(operatorProviderEntries(answerProviders, env), env);
}

/** Entries ready for runAnswer: the operator's `llm` gets SEARCHMUX_LLM_MODEL, or is left out without one. */
export function withOperatorModel(entries: readonly AnswerEntry[], env: Env): AnswerEntry[] {
  const model = env[OPERATOR_LLM_MODEL_ENV]?.trim();
  return entries.flatMap((entry) => {
    if (entry.provider.defaultModel !== "") return [entry];
    // The operator model is the only provider without a default model: offered only once it is named.
    return model ? [{ ...entry, model }] : [];
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
