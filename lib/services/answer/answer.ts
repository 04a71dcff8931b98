import type { z } from "zod";
import { answerInputSchema } from "@/lib/engine/answer/input";
import { runAnswer } from "@/lib/engine/answer/run-answer";
import type { AnswerEntry, GroundingSearch } from "@/lib/engine/answer/types";
import { assertScope, type TenantContext } from "@/lib/pipeline/context";
import { ServiceError } from "@/lib/pipeline/errors";
import type { OnProgress } from "@/lib/pipeline/provider-attempts";
import { withOperatorModel } from "@/lib/pipeline/providers/operator-providers";
import { selectProviders } from "@/lib/pipeline/providers/selection";
import { runCall } from "@/lib/pipeline/run-call";
import { noCacheField, parseInput } from "@/lib/pipeline/validate";
import { answerProviders } from "@/lib/providers/answer";
import { webSearch } from "@/lib/services/search/web-search";

export const answerToolInput = answerInputSchema.extend({ no_cache: noCacheField }).strict();

const GROUNDING_RESULTS = 10;
const ANSWER_PROVIDER_IDS: ReadonlySet<string> = new Set(answerProviders.map((provider) => provider.id));

/** The web search that grounds answer models: snippets are enough, grounded snippets would only add latency. */
export const groundingSearchInput = (query: string) => ({
  query,
  max_results: GROUNDING_RESULTS,
  grounded_snippets: false,
});

/** Grounding sources for answer models: the tenant's own web search (budgeted and cached like any search). */
const tenantGrounding =
  (ctx: TenantContext): GroundingSearch =>
  async (query) => {
    const search = await webSearch({ ctx, input: groundingSearchInput(query) });
    return search.results.map((r) => ({ url: r.url, title: r.title, snippet: r.snippet }));
  };

/**
 * Grounded providers answer from the workspace's own web search, which the token must be allowed to run:
 * checked before the call, not found out inside a provider attempt that has already been charged.
 */
function assertGroundingScope(ctx: TenantContext, entries: readonly AnswerEntry[]): void {
  const grounded = entries.filter((e) => e.provider.grounded).map((e) => e.provider.id);
  if (grounded.length > 0 && !ctx.scopes.includes("search")) {
    throw new ServiceError(
      "forbidden",
      `grounded providers (${grounded.join(", ")}) answer from a web search: this call needs the 'search' scope too, or name other providers`,
    );
  }
}

/**
 * The answer providers a call offers of its selected `entries`: `llm` only with SEARCHMUX_LLM_MODEL (naming it
 * without one is an input error, not a failed call), and grounded ones only with the search scope.
 */
export function offeredAnswerProviders(
  ctx: TenantContext,
  wanted: readonly string[] | undefined,
  entries: readonly AnswerEntry[],
): AnswerEntry[] {
  const offered = withOperatorModel(entries, ctx.env);
  selectProviders(wanted, ANSWER_PROVIDER_IDS, offered, "answer");
  assertGroundingScope(ctx, offered);
  return offered;
}

/** answer for a tenant: every configured answer provider side by side, with budgets, cache and refunds. */
export async function answer({
  ctx,
  input,
  onProgress,
  signal,
}: {
  ctx: TenantContext;
  input: z.input<typeof answerToolInput>;
  /** Told of each provider attempt as it finishes. */
  onProgress?: OnProgress;
  /** The caller went away (client disconnect, MCP cancellation): provider calls stop. */
  signal?: AbortSignal;
}) {
  assertScope(ctx, "answer");
  const { no_cache, ...parsed } = parseInput(answerToolInput, input);
  return runCall(ctx, {
    onProgress,
    tool: "answer",
    spanKind: "answer",
    registry: answerProviders,
    wanted: parsed.providers,
    noCache: no_cache,
    cacheInput: { query: parsed.query },
    authorize: (entries) => offeredAnswerProviders(ctx, parsed.providers, entries),
    run: (entries, admit) =>
      runAnswer({
        input: parsed,
        providers: withOperatorModel(entries, ctx.env),
        admit,
        signal,
        groundingSearch: tenantGrounding(ctx),
      }),
    succeeded: (result) => result.answers.length,
    summarize: (result) => ({
      answers: result.answers.map((a) => ({
        provider: a.provider,
        model: a.model,
        citations: a.citations.length,
      })),
      shared_citations: result.agreement.shared_citations.slice(0, 5).map((c) => c.url),
    }),
  });
}
