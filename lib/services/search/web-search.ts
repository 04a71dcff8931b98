import { z } from "zod";
import { searchInputSchema, searchModeField } from "@/lib/engine/search/input";
import { type ProviderAnswer, type ProviderRanking, runSearch } from "@/lib/engine/search/run-search";
import { clampedInteger, resultCountField } from "@/lib/engine/shared/input-fields";
import { keepAnswer, keptAnswers } from "@/lib/pipeline/cache/provider-answers";
import { assertScope, type TenantContext } from "@/lib/pipeline/context";
import { autoBasis, learnFromSearch, planSearch } from "@/lib/pipeline/contribution/search-plan";
import type { OnProgress } from "@/lib/pipeline/provider-attempts";
import { skippedProviders } from "@/lib/pipeline/providers/skipped";
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

export const webSearchInput = searchInputSchema
  .extend({
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
      .describe("A model writes snippets from the top pages (5–30 s, charged per page)"),
    grounded_results: resultCountField({ defaultCount: 10, cap: 20 }, "Results to ground"),
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
  .strict();

/**
 * web_search for a tenant: fan-out over its providers with budgets, cache and refunds
 * (lib/pipeline/run-call.ts; each provider's answer kept apart, provider-answers.ts), optionally scoped by a
 * lens, then the depth stages (grounded snippets, include_content, depth-stages.ts) inside the same call,
 * trace and cache entry. A call that names neither `mode` nor `providers` runs in the workspace's default
 * mode; in auto mode, after a cache miss, the learner's plan decides which paid providers are asked
 * (lib/pipeline/contribution), and a fresh full fan-out is recorded for it after the response.
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
  const { providers, no_cache, lens, mode: named, ...options } = parseInput(webSearchInput, input);
  const mode = named ?? (providers ? "fanout" : (await tenantSearchSettings(ctx)).defaultSearchMode);
  const searchInput = withoutDepthStageOptions({ ...options, mode });
  const engineInput = lens ? applyLens(searchInput, await resolveLens(ctx, lens)) : searchInput;
  const stages = await planDepthStages(ctx, options);
  // What shapes each provider's answer: not the deadline or the mode, which only decide whom to ask.
  const { timeout_ms: _deadline, mode: _mode, ...answerInput } = engineInput;
  const trace = withStageTrace(ctx);
  const origin = performance.now();
  return runCall(trace.ctx, {
    onProgress,
    tool: "web_search",
    spanKind: "search",
    registry: searchProviders,
    wanted: providers,
    noCache: no_cache,
    cacheInput: { ...engineInput, ...(lens && { lens }), ...stages.cacheInput },
    run: async (entries, admit) => {
      const answered = no_cache
        ? new Map<string, ProviderAnswer>()
        : await keptAnswers<ProviderAnswer>(
            ctx,
            "web_search",
            entries.map((e) => e.provider.id),
            answerInput,
          );
      const plan = await planSearch(ctx, { mode, entries, answered: new Set(answered.keys()) });
      const onAnswer = (providerId: string, answer: ProviderAnswer) =>
        keepAnswer(ctx, "web_search", providerId, answerInput, answer);
      let rankings: ProviderRanking[] = [];
      const search = await runSearch({
        input: engineInput,
        providers: plan.call,
        admit,
        signal,
        answered,
        onAnswer,
        onRankings: (fused) => {
          rankings = fused;
        },
      });
      learnFromSearch(ctx, plan, {
        subset: providers !== undefined,
        keptAnswers: answered.size,
        failures: search.providers_failed,
        rankings,
      });
      const staged = await stages.run(search, {
        origin,
        timeoutMs: engineInput.timeout_ms,
        onProgress,
        trace,
      });
      return {
        ...staged,
        providers_skipped: skippedProviders(search.spans, plan.skipped),
        auto: autoBasis(plan),
      };
    },
    succeeded: (result) => result.providers_succeeded.length,
    summarize: (result) => ({
      results: result.results.length,
      top_urls: result.results.slice(0, 5).map((r) => r.url),
      ...depthStageSummary(result),
      ...(result.providers_skipped.length > 0 && { skipped: result.providers_skipped }),
      ...(result.auto && { auto: result.auto }),
    }),
  });
}

export type WebSearchResult = Awaited<ReturnType<typeof webSearch>>;
