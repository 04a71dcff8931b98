import { z } from "zod";
import {
  MAX_QUERY_CHARS,
  type SearchTopic,
  searchInputSchema,
  searchModeField,
} from "@/lib/engine/search/input";
import { combineSearches, mergeQueryResults } from "@/lib/engine/search/merge-queries";
import { type ProviderAnswer, type ProviderRanking, runSearch } from "@/lib/engine/search/run-search";
import { byTopic } from "@/lib/engine/search/topic";
import type { SearchProvider } from "@/lib/engine/search/types";
import { clampedInteger, queryField, resultCountField } from "@/lib/engine/shared/input-fields";
import type { ResolvedProvider } from "@/lib/engine/shared/types";
import { keepAnswer, keptAnswers } from "@/lib/pipeline/cache/provider-answers";
import { assertScope, type TenantContext } from "@/lib/pipeline/context";
import { autoBasis, learnFromSearch, planSearch } from "@/lib/pipeline/contribution/search-plan";
import { ServiceError } from "@/lib/pipeline/errors";
import type { OnProgress } from "@/lib/pipeline/provider-attempts";
import { type SkippedProvider, skippedProviders } from "@/lib/pipeline/providers/skipped";
import { runCall } from "@/lib/pipeline/run-call";
import { noCacheField, parseInput } from "@/lib/pipeline/validate";
import { searchProviders } from "@/lib/providers/search";
import { lensName } from "@/lib/services/lenses/lens";
import { resolveLens } from "@/lib/services/lenses/resolve-lens";
import { applyLens } from "./apply-lens";
import { depthStageSummary, planDepthStages, withoutDepthStageOptions } from "./depth-stages";
import { tenantSearchSettings } from "./search-settings";
import { withStageTrace } from "./stage-trace";

const DEFAULT_GROUNDED_TIMEOUT_MS = 15_000;
const DEFAULT_CONTENT_CHARS = 10_000;

const MAX_QUERIES = 5;

export const webSearchInput = searchInputSchema
  .extend({
    query: searchInputSchema.shape.query.optional(),
    queries: z
      .array(queryField(MAX_QUERY_CHARS))
      .min(1)
      .max(MAX_QUERIES)
      .optional()
      .describe("Instead of query; answered per query"),
    merge: z.boolean().optional().describe("With queries: one fused list"),
    mode: searchModeField.optional().describe(`${searchModeField.description}. Default: the workspace's`),
    providers: z
      .array(z.string().trim().toLowerCase().min(1).max(40))
      .min(1)
      .max(30)
      .optional()
      .describe("Only these provider ids"),
    no_cache: noCacheField,
    lens: lensName.optional().describe("Domain set: docs, academic, news, forums, code or the workspace's"),
    grounded_snippets: z
      .boolean()
      .optional()
      .describe("A model writes the top snippets from their pages (slow, charged)"),
    grounded_results: resultCountField({ defaultCount: 10, cap: 20 }),
    grounded_timeout_ms: clampedInteger({
      min: 1_000,
      max: 60_000,
      defaultValue: DEFAULT_GROUNDED_TIMEOUT_MS,
    }).describe("Per grounded page"),
    include_content: z.boolean().optional().describe("Also return the top pages' Markdown"),
    content_results: resultCountField({ defaultCount: 3, cap: 10 }, "Pages for content"),
    max_chars: clampedInteger({ min: 100, max: 100_000, defaultValue: DEFAULT_CONTENT_CHARS }).describe(
      "Per content page",
    ),
  })
  .strict()
  .superRefine((input, ctx) => {
    if (input.query === undefined && input.queries === undefined)
      ctx.addIssue({ code: "custom", path: ["query"], message: "is required (or queries)" });
    else if (input.query !== undefined && input.queries !== undefined)
      ctx.addIssue({ code: "custom", path: ["queries"], message: "give either query or queries, not both" });
    else if (input.merge !== undefined && input.queries === undefined)
      ctx.addIssue({ code: "custom", path: ["merge"], message: "merge goes with queries" });
    else if (input.queries && !input.merge && (input.grounded_snippets || input.include_content))
      ctx.addIssue({
        code: "custom",
        path: [input.grounded_snippets ? "grounded_snippets" : "include_content"],
        message: "reads the top results of one list: give query, or queries with merge: true",
      });
  });

/**
 * web_search for a tenant: fan-out over its providers with budgets, cache and refunds
 * (lib/pipeline/run-call.ts; each provider's answer kept apart, provider-answers.ts), optionally scoped by a
 * lens, then the depth stages (grounded snippets, include_content, depth-stages.ts) inside the same call,
 * trace and cache entry. A call that names neither `mode` nor `providers` runs in the workspace's default
 * mode; in auto mode, after a cache miss, the learner's plan decides which paid providers are asked
 * (lib/pipeline/contribution), and a fresh full web fan-out is recorded for it after the response.
 * Topic news asks only the providers with a news search (the others are skipped, `no_news_search`).
 * `queries` runs each query as its own search in the same call (one trace, one cache entry, each provider
 * call admitted and charged; a query whose providers' answers are kept costs nothing) and answers per query,
 * or with `merge` one list fused across them.
 */
export async function webSearch({
  ctx,
  input,
  onProgress,
  signal,
}: {
  ctx: TenantContext;
  input: z.input<typeof webSearchInput>;
  /** Told of each provider attempt as it finishes. */
  onProgress?: OnProgress;
  /** The caller went away (client disconnect, MCP cancellation): provider calls stop. */
  signal?: AbortSignal;
}) {
  assertScope(ctx, "search");
  const parsed = parseInput(webSearchInput, input);
  const { providers, no_cache, lens, mode: named, query, queries, merge, ...options } = parsed;
  const texts = queries ?? [query as string];
  const mode = named ?? (providers ? "fanout" : (await tenantSearchSettings(ctx)).defaultSearchMode);
  const searchInput = withoutDepthStageOptions({ ...options, mode, query: texts[0] as string });
  const engineInput = lens ? applyLens(searchInput, await resolveLens(ctx, lens)) : searchInput;
  const stages = await planDepthStages(ctx, depthStageRequest(parsed));
  // What shapes each provider's answer: not the deadline or the mode, which only decide whom to ask.
  const { query: _query, ...sharedInput } = engineInput;
  const { timeout_ms: _deadline, mode: _mode, ...answerInput } = sharedInput;
  const trace = withStageTrace(ctx);
  const origin = performance.now();
  const asked = queries ? { queries, merge: merge === true } : { query: engineInput.query };
  return runCall(trace.ctx, {
    onProgress,
    tool: "web_search",
    spanKind: "search",
    registry: searchProviders,
    wanted: providers,
    noCache: no_cache,
    cacheInput: { ...sharedInput, ...asked, ...(lens && { lens }), ...stages.cacheInput },
    run: async (entries, admit) => {
      const topic = topicProviders(entries, engineInput.topic, providers !== undefined);
      const searchOne = async (text: string) => {
        const answerKey = { ...answerInput, query: text };
        const answered = no_cache
          ? new Map<string, ProviderAnswer>()
          : await keptAnswers<ProviderAnswer>(
              ctx,
              "web_search",
              topic.able.map((e) => e.provider.id),
              answerKey,
            );
        const plan = await planSearch(ctx, { mode, entries: topic.able, answered: new Set(answered.keys()) });
        let rankings: ProviderRanking[] = [];
        const search = await runSearch({
          input: { ...engineInput, query: text },
          providers: plan.call,
          admit,
          signal,
          answered,
          onAnswer: (providerId, answer) => keepAnswer(ctx, "web_search", providerId, answerKey, answer),
          onRankings: (fused) => {
            rankings = fused;
          },
        });
        learnFromSearch(ctx, plan, {
          // A news search's lists say nothing of what a provider adds to web results.
          subset: providers !== undefined || engineInput.topic === "news",
          keptAnswers: answered.size,
          failures: search.providers_failed,
          rankings,
        });
        const skipped = skippedProviders(search.spans, [...plan.skipped, ...topic.skipped]);
        return { search, skipped, auto: autoBasis(plan) };
      };
      const searched = await Promise.all(texts.map(searchOne));
      const [first] = searched;
      const searches = searched.map((s) => s.search);
      const search =
        queries === undefined && first
          ? first.search
          : combineSearches(
              searches,
              merge
                ? mergeQueryResults(
                    searches.map((s) => s.results),
                    engineInput.max_results,
                  )
                : [],
            );
      const staged = await stages.run(search, {
        origin,
        timeoutMs: engineInput.timeout_ms,
        onProgress,
        trace,
      });
      return {
        ...staged,
        ...(queries && {
          queries,
          by_query: searched.map(({ search, skipped, auto }) => ({
            query: search.query,
            results: search.results,
            skipped,
            auto,
          })),
          merged: merge === true,
        }),
        providers_skipped: uniqueSkips(searched.flatMap((s) => s.skipped)),
        auto: first?.auto,
      };
    },
    succeeded: (result) => result.providers_succeeded.length,
    summarize: (result) => ({
      results: result.results.length,
      top_urls: result.results.slice(0, 5).map((r) => r.url),
      ...depthStageSummary(result),
      ...(result.providers_skipped.length > 0 && { skipped: result.providers_skipped }),
      ...(result.auto && { auto: result.auto }),
      ...(result.by_query && {
        by_query: result.by_query.map((q) => ({
          query: q.query,
          results: q.results.length,
          top_urls: q.results.slice(0, 5).map((r) => r.url),
          ...(q.skipped.length > 0 && { skipped: q.skipped }),
          ...(q.auto && { auto: q.auto }),
        })),
      }),
    }),
  });
}

/**
 * The depth stages a call asks for. Queries without merge give no one list to ground or read: a workspace's
 * default grounding is not applied to them (an explicit request is refused by the schema).
 */
export function depthStageRequest(input: WebSearchInput): WebSearchInput {
  const oneList = input.queries === undefined || input.merge === true;
  return oneList ? input : { ...input, grounded_snippets: false, include_content: false };
}

type WebSearchInput = z.output<typeof webSearchInput>;

/**
 * The providers a search of `topic` asks, and those it skips. Named providers none of which can search the
 * topic are the caller's mistake; a workspace with none is a configuration to change.
 */
function topicProviders<E extends ResolvedProvider<SearchProvider>>(
  entries: readonly E[],
  topic: SearchTopic,
  named: boolean,
): { able: E[]; skipped: SkippedProvider[] } {
  const { able, unable } = byTopic(entries, topic);
  if (able.length === 0) {
    const detail = `none of ${unable.join(", ")} has a news search (news comes from ${NEWS_PROVIDERS})`;
    throw named
      ? new ServiceError("invalid_input", `providers: ${detail}`)
      : new ServiceError("no_provider_configured", `this workspace's providers: ${detail}`);
  }
  return { able, skipped: unable.map((provider) => ({ provider, reason: "no_news_search" as const })) };
}

const NEWS_PROVIDERS = searchProviders
  .filter((p) => p.news)
  .map((p) => p.id)
  .join(", ");

/** Each provider once, with the first reason any query skipped it for. */
function uniqueSkips(skips: readonly SkippedProvider[]): SkippedProvider[] {
  const first = new Map<string, SkippedProvider>();
  for (const skip of skips) if (!first.has(skip.provider)) first.set(skip.provider, skip);
  return [...first.values()];
}

export type WebSearchResult = Awaited<ReturnType<typeof webSearch>>;
