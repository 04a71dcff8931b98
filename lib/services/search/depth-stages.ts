/**
 * The research-depth stages of web_search, after fusion: grounded snippets (on per call, or by the
 * tenant's default) and include_content. Everything a stage needs from the tenant — its model, its
 * fetch steps — is resolved before the search, so a misconfiguration costs nothing; the stages then run
 * in parallel inside the tool call, their calls budgeted (stage-budget.ts) and traced (stage-trace.ts).
 */
import { fetchPageContents } from "@/lib/engine/grounding/page-contents";
import { runGrounding } from "@/lib/engine/grounding/run-grounding";
import type {
  ContentPage,
  GroundedPage,
  ModelEntry,
  PageAccess,
  ResearchResult,
} from "@/lib/engine/grounding/types";
import type { SearchResult } from "@/lib/engine/search/run-search";
import type { TenantContext } from "@/lib/pipeline/context";
import { ServiceError } from "@/lib/pipeline/errors";
import { addEstimates, type CallEstimate, estimateOf, NO_CALLS, repeated } from "@/lib/pipeline/estimate";
import type { OnProgress } from "@/lib/pipeline/provider-attempts";
import {
  fetchAllowlistFromEnv,
  withOperatorModel,
  withProviderSettings,
} from "@/lib/pipeline/providers/operator-providers";
import { tenantProviders } from "@/lib/pipeline/providers/tenant-providers";
import { completeChat, operatorLlm } from "@/lib/providers/answer/openai-compatible";
import { fetchProviders } from "@/lib/providers/fetch";
import { pageEstimate } from "@/lib/services/fetch/estimate-fetch";
import { contentTotalChars } from "@/lib/services/fetch/result-size";
import { tenantSearchSettings } from "./search-settings";
import { stageBudget } from "./stage-budget";
import { type StageTrace, stageSpanRecords } from "./stage-trace";

export interface DepthStageOptions {
  /** Undefined: the tenant's default. */
  grounded_snippets?: boolean;
  grounded_results: number;
  grounded_timeout_ms: number;
  include_content?: boolean;
  content_results: number;
  max_chars: number;
}

/** web_search's input without the depth-stage options: what the search itself runs on and is cached by. */
export function withoutDepthStageOptions<T extends DepthStageOptions>(
  input: T,
): Omit<T, keyof DepthStageOptions> {
  const {
    grounded_snippets,
    grounded_results,
    grounded_timeout_ms,
    include_content,
    content_results,
    max_chars,
    ...searchInput
  } = input;
  return searchInput;
}

export type DepthSearchResult = Omit<SearchResult, "results"> & {
  results: ResearchResult[];
  /** What each stage did per page, for the trace. */
  research?: { grounded?: GroundedPage[]; content?: ContentPage[] };
};

interface CallFacts {
  /** performance.now() when the call started. */
  origin: number;
  /** The call's deadline (timeout_ms), which include_content keeps to. */
  timeoutMs: number;
  onProgress?: OnProgress;
  trace: StageTrace;
}

export interface DepthStages {
  /** The stage options that shape the result, for the cache key: empty when no stage runs. */
  cacheInput: Record<string, unknown>;
  run(search: SearchResult, call: CallFacts): Promise<DepthSearchResult>;
  /** The most the stages could cost: each page they read fetched through every step, a model call each. */
  estimate(): CallEstimate;
}

/** The tenant's `llm`: the operator's endpoint and model, with the tenant's own key when it stored one. */
export async function tenantModel(ctx: TenantContext): Promise<ModelEntry | undefined> {
  const { available } = await tenantProviders(ctx, [operatorLlm]);
  const [entry] = withOperatorModel(available, ctx.env);
  return entry?.model ? { ...entry, model: entry.model } : undefined;
}

export async function planDepthStages(ctx: TenantContext, request: DepthStageOptions): Promise<DepthStages> {
  const wantsGrounding = request.grounded_snippets ?? (await tenantSearchSettings(ctx)).groundedSnippets;
  const model = wantsGrounding ? await tenantModel(ctx) : undefined;
  // A tenant default without a model configured leaves snippets aggregated; an explicit request fails.
  if (request.grounded_snippets === true && model === undefined) {
    throw new ServiceError(
      "no_provider_configured",
      "grounded snippets need the operator model (SEARCHMUX_LLM_BASE_URL and SEARCHMUX_LLM_MODEL)",
    );
  }
  const grounding = model && { results: request.grounded_results, timeout_ms: request.grounded_timeout_ms };
  const content = request.include_content
    ? {
        results: request.content_results,
        max_chars: request.max_chars,
        total_chars: contentTotalChars(ctx.surface),
      }
    : undefined;
  if (!grounding && !content)
    return { cacheInput: {}, run: async (search) => search, estimate: () => NO_CALLS };

  const { available } = await tenantProviders(ctx, fetchProviders);
  const fetchEntries = withProviderSettings(available, ctx.env);
  const secrets = [...fetchEntries, ...(model ? [model] : [])].flatMap((e) => (e.apiKey ? [e.apiKey] : []));

  return {
    cacheInput: {
      ...(grounding && { grounded_snippets: grounding }),
      ...(content && { include_content: content }),
    },
    estimate: () => {
      const page = pageEstimate(fetchEntries);
      return addEstimates(
        repeated(addEstimates(page, estimateOf(model ? [model] : [])), grounding ? grounding.results : 0),
        repeated(page, content ? content.results : 0),
      );
    },
    async run(search, call) {
      const budget = stageBudget(ctx, call.onProgress);
      const access: PageAccess = {
        fetchEntries,
        fetchRegistry: fetchProviders,
        ssrf: { allowlist: fetchAllowlistFromEnv(ctx.env) },
        admitFetch: budget.admitter("fetch", fetchEntries),
        origin: call.origin,
      };
      // Both stages finish before the budget closes, even when one throws: closing early would refund the
      // other's attempts still in flight, and not closing would leave un-run admissions to the sweep.
      const stages = await Promise.allSettled([
        grounding && model
          ? runGrounding({
              ...access,
              query: search.query,
              model,
              complete: completeChat,
              admitModel: budget.admitter("llm", [model]),
              pageTimeoutMs: grounding.timeout_ms,
              results: search.results,
              count: grounding.results,
            })
          : undefined,
        content
          ? fetchPageContents({
              ...access,
              results: search.results,
              count: content.results,
              maxChars: content.max_chars,
              totalChars: content.total_chars,
              remainingMs: Math.max(0, Math.round(call.timeoutMs - (performance.now() - call.origin))),
            })
          : undefined,
      ]);
      const kept = await budget.close();
      const [grounded, contents] = [fulfilled(stages[0]), fulfilled(stages[1])];
      call.trace.add(
        stageSpanRecords([...(grounded?.spans ?? []), ...(contents?.spans ?? [])], kept, secrets),
      );
      const pages = [...(grounded?.pages ?? []), ...(contents?.pages ?? [])];
      return {
        ...search,
        results: search.results.map((result, index) => ({
          ...(grounded?.results[index] ?? result),
          ...contentFields(contents?.results[index]),
        })),
        partial: search.partial || pages.some((page) => page.problem?.transient === true),
        // The stages read pages and ask a model again: this call bought something, whatever the providers kept.
        cached: false,
        research: { grounded: grounded?.pages, content: contents?.pages },
      };
    },
  };
}

/** A stage's result, or its error thrown. */
function fulfilled<T>(stage: PromiseSettledResult<T>): T {
  if (stage.status === "rejected") throw stage.reason;
  return stage.value;
}

const contentFields = (result: ResearchResult | undefined) => {
  if (result?.content !== undefined) return { content: result.content };
  if (result?.content_error !== undefined) return { content_error: result.content_error };
  return {};
};

/** Per-page outcomes for the trace summary. */
export function depthStageSummary(result: DepthSearchResult): Record<string, unknown> {
  const { grounded, content } = result.research ?? {};
  return {
    ...(grounded && {
      grounded: grounded.map((page) => ({
        url: page.url,
        snippet_source: page.snippet_source,
        fetched_by: page.fetched_by,
        attempts: page.attempts,
        reason: page.problem?.reason,
      })),
    }),
    ...(content && {
      content: content.map((page) => ({
        url: page.url,
        provider: page.provider,
        reason: page.problem?.reason,
      })),
    }),
  };
}
