/**
 * One research job, run by the instance holding its lease: plan the sub-queries (the operator's model,
 * else plain variants), search each through web_search, read the best pages in one fetch of `urls`, and
 * write the cited report (the model, else extractive). Every sub-call is a call of the tool's own verb as
 * the job's starter — budgets, cache and a trace of its own — and each finished step is checkpointed, so an
 * instance that takes the job over repeats none of them. Budgets running out, the job's cost limit or its
 * deadline stop the searching: the report is written from what was found, marked partial with the reason.
 */
import { planQueries } from "@/lib/engine/research/plan";
import { selectPages } from "@/lib/engine/research/select-pages";
import type { ResearchModel } from "@/lib/engine/research/types";
import { writeReport } from "@/lib/engine/research/write-report";
import { linkedAbort } from "@/lib/engine/shared/abort";
import type { ProviderSpan } from "@/lib/engine/shared/types";
import type { Platform, TenantContext } from "@/lib/pipeline/context";
import { ServiceError } from "@/lib/pipeline/errors";
import { recordCallTrace } from "@/lib/pipeline/traces/call-trace";
import type { TraceRecord } from "@/lib/pipeline/traces/trace-sink";
import { completeChat } from "@/lib/providers/answer/openai-compatible";
import { isBatchError } from "@/lib/services/fetch/fetch-many";
import { fetchPage } from "@/lib/services/fetch/fetch-page";
import { tenantModel } from "@/lib/services/search/depth-stages";
import { stageBudget } from "@/lib/services/search/stage-budget";
import { stageSpanRecords, withStageTrace } from "@/lib/services/search/stage-trace";
import { webSearch } from "@/lib/services/search/web-search";
import type { ResearchInput } from "./input";
import { jobContext } from "./job-context";
import { type JobRow, type JobUpdate, writeJob } from "./job-lease";
import type { ResearchProgress, StopReason } from "./job-view";
import {
  hasResults,
  isReadPage,
  type PageStep,
  type ResearchState,
  type SearchStep,
  type SubCall,
  stateOf,
} from "./research-state";

/** How long one job may work in all, across instances, before it writes what it has. */
export const JOB_DEADLINE_MS = 15 * 60_000;
const SEARCH_TIMEOUT_MS = 30_000;
const READ_TIMEOUT_MS = 90_000;
const MODEL_TIMEOUT_MS = 120_000;
/** Characters of each page kept for the report (the writer trims further). */
const PAGE_CHARS = 12_000;

/** The job's cancellation and the lease: aborted when the job is cancelled or the lease is lost. */
export interface JobControl {
  owner: string;
  signal: AbortSignal;
}

class LeaseLost extends Error {}

export async function runResearchJob(platform: Platform, row: JobRow, control: JobControl): Promise<void> {
  const job = { id: row.id, owner: control.owner };
  const input = row.input as ResearchInput;
  const state = stateOf(row.state);
  const startedAt = row.startedAt ?? new Date();
  // Offsets of this instance's spans from the job's first start.
  const origin = performance.now() - (Date.now() - startedAt.getTime());
  const { ctx, base } = jobContext(platform, row, (trace) => {
    state.sub_calls.push(subCall(trace));
    state.cost_micros += trace.costMicros;
  });

  const save = async (update: JobUpdate) => {
    if (!(await writeJob(platform.db, job, update))) throw new LeaseLost();
  };
  const total = () => 1 + (state.plan?.queries.length ?? input.max_queries) + 2;
  const checkpoint = (progress: Omit<ResearchProgress, "total">) =>
    save({ state: state, progress: { ...progress, total: total() } });
  const stopWhy = (): { reason: StopReason; detail: string } | undefined => {
    if (state.stop) return state.stop;
    if (Date.now() - startedAt.getTime() > JOB_DEADLINE_MS) {
      return { reason: "deadline", detail: `the job's ${JOB_DEADLINE_MS / 60_000}-minute limit was reached` };
    }
    if (input.max_cost_usd !== undefined && state.cost_micros >= input.max_cost_usd * 1_000_000) {
      return { reason: "cost_limit", detail: `the job's calls reached max_cost_usd ${input.max_cost_usd}` };
    }
    return undefined;
  };

  try {
    const model = await modelFor(ctx);
    if (!state.plan) {
      await checkpoint({ phase: "planning", message: "planning the searches", done: 0 });
      const plan = await modelStep(ctx, state, model, control.signal, (researchModel, deadline) =>
        planQueries({
          question: input.question,
          count: input.max_queries,
          model: researchModel,
          deadline,
          origin,
        }),
      );
      state.plan = { queries: plan.queries, planner: plan.planner };
    }
    const queries = state.plan.queries;
    for (const [index, query] of queries.entries()) {
      if (state.searches[query]) continue;
      state.stop = stopWhy();
      if (state.stop) break;
      await checkpoint({ phase: "searching", message: `searching: ${query}`, done: 1 + index });
      state.searches[query] = await search(ctx, query, input, control.signal, state);
    }
    if (!state.pages) {
      const found = queries.flatMap((query) => {
        const step = state.searches[query];
        return hasResults(step) ? [{ query, results: step.results }] : [];
      });
      if (found.length === 0) return await fail(save, state, noResults(state));
      const candidates = selectPages(found, input.max_pages);
      await checkpoint({
        phase: "reading",
        message: `reading ${candidates.length} pages`,
        done: 1 + queries.length,
      });
      state.pages = await read(ctx, candidates, control.signal);
    }
    const pages = state.pages.filter(isReadPage);
    if (pages.length === 0) {
      return await fail(save, state, `none of the ${state.pages.length} chosen pages could be read`);
    }
    await checkpoint({ phase: "writing", message: "writing the report", done: 2 + queries.length });
    const stop = state.stop ?? stopWhy();
    const written = await modelStep(ctx, state, model, control.signal, (researchModel, deadline) =>
      writeReport({
        question: input.question,
        pages,
        model: researchModel,
        deadline,
        origin,
        partialReason: stop?.detail,
      }),
    );
    const traceId = recordJobTrace(base, row, state, origin, { status: stop ? "partial" : "ok" });
    await save({
      status: "succeeded",
      state: state,
      progress: {
        phase: "done",
        message: stop ? `partial: ${stop.detail}` : "done",
        done: total(),
        total: total(),
      },
      report: written.report,
      sources: written.sources,
      partial: stop !== undefined,
      stopReason: stop?.reason ?? null,
      traceId,
    });
  } catch (error) {
    if (error instanceof LeaseLost) return;
    if (control.signal.aborted && control.signal.reason === CANCELLED) {
      await save({
        status: "cancelled",
        state: state,
        progress: { phase: "done", message: "cancelled", done: 0, total: total() },
      }).catch(() => {});
      return;
    }
    if (control.signal.aborted) return; // the lease was lost mid-step: the new holder carries on
    await fail(
      save,
      state,
      error instanceof ServiceError ? `${error.code}: ${error.message}` : String(error),
    ).catch(() => {});
  }

  async function fail(write: typeof save, failed: ResearchState, message: string): Promise<void> {
    const traceId = recordJobTrace(base, row, failed, origin, { status: "error", error: message });
    await write({
      status: "failed",
      state: failed,
      progress: { phase: "done", message: "failed", done: 0, total: total() },
      error: message,
      stopReason: failed.stop?.reason ?? null,
      traceId,
    });
  }
}

/** The reason an abort carries when the job was cancelled (the worker's heartbeat sets it). */
export const CANCELLED = "research job cancelled";

async function modelFor(ctx: TenantContext): Promise<ResearchModel | undefined> {
  const model = await tenantModel(ctx);
  return model && { model, complete: completeChat };
}

/**
 * A model step (plan, report) under its own budget admission: its span and kept charge join the job's
 * own trace and cost. Without a model the step runs its plain fallback.
 */
async function modelStep<T extends { span?: ProviderSpan<"llm"> }>(
  ctx: TenantContext,
  state: ResearchState,
  model: ResearchModel | undefined,
  signal: AbortSignal,
  step: (model: ResearchModel | undefined, deadline: AbortSignal) => Promise<T>,
): Promise<T> {
  const deadline = linkedAbort(
    [signal],
    MODEL_TIMEOUT_MS,
    `the model did not answer within ${MODEL_TIMEOUT_MS} ms`,
  );
  const budget = stageBudget(ctx);
  try {
    const result = await step(
      model && { ...model, admit: budget.admitter("llm", [model.model]) },
      deadline.signal,
    );
    const kept = await budget.close();
    if (result.span) {
      const secrets = model?.model.apiKey ? [model.model.apiKey] : [];
      const [record] = stageSpanRecords([result.span], kept, secrets);
      if (record) {
        state.spans.push(record);
        state.cost_micros += record.costMicros;
      }
    }
    signal.throwIfAborted();
    return result;
  } finally {
    deadline.dispose();
  }
}

async function search(
  ctx: TenantContext,
  query: string,
  input: ResearchInput,
  signal: AbortSignal,
  state: ResearchState,
): Promise<SearchStep> {
  try {
    const result = await webSearch({
      ctx,
      input: { query, max_results: 10, timeout_ms: SEARCH_TIMEOUT_MS, providers: input.providers },
      signal,
    });
    return {
      results: result.results.map(({ url, title, snippet, sources }) => ({ url, title, snippet, sources })),
    };
  } catch (error) {
    signal.throwIfAborted();
    if (!(error instanceof ServiceError)) throw error;
    if (error.code === "budget_exhausted" || refusedSome(error)) {
      state.stop = { reason: "budget_exhausted", detail: error.message };
    } else if (error.code !== "all_providers_failed") {
      throw error; // nothing to search with (no provider, invalid providers): the job cannot go on
    }
    return { error: `${error.code}: ${error.message}` };
  }
}

async function read(
  ctx: TenantContext,
  candidates: ReturnType<typeof selectPages>,
  signal: AbortSignal,
): Promise<PageStep[]> {
  const fetched = await fetchPage({
    // Reading the searches' results is part of research, which needs only the search scope.
    ctx: ctx.scopes.includes("fetch") ? ctx : { ...ctx, scopes: [...ctx.scopes, "fetch"] },
    input: { urls: candidates.map((page) => page.url), max_chars: PAGE_CHARS, timeout_ms: READ_TIMEOUT_MS },
    signal,
  });
  const items = "results" in fetched ? fetched.results : [fetched];
  return candidates.map((candidate, index) => {
    const item = items[index];
    const known = { url: candidate.url, found_by: candidate.found_by };
    if (!item || isBatchError(item)) {
      return { ...known, title: candidate.title, error: item?.error.message ?? "not fetched" };
    }
    if (item.content.trim() === "")
      return { ...known, title: candidate.title, error: "the page had no text" };
    return { ...known, title: item.title || candidate.title, content: item.content };
  });
}

/** Nothing succeeded, and budgets refused some providers: more searching would only spend the rest. */
function refusedSome(error: ServiceError): boolean {
  return (
    error.code === "all_providers_failed" &&
    Array.isArray(error.details) &&
    error.details.some(
      (failure: { reason?: string }) =>
        failure.reason === "budget_exhausted" || failure.reason === "operator_quota_exhausted",
    )
  );
}

function noResults(state: ResearchState): string {
  const errors = Object.values(state.searches).flatMap((step) => ("error" in step ? [step.error] : []));
  if (state.stop) return `${state.stop.reason}: ${state.stop.detail}`;
  return errors.length > 0 ? `every search failed — ${errors.join("; ")}` : "the searches found nothing";
}

function subCall(trace: TraceRecord): SubCall {
  const input = trace.input as { query?: string; url?: string; urls?: string[] };
  const label = input.query ?? input.url ?? (input.urls ? `${input.urls.length} pages` : trace.tool);
  return {
    tool: trace.tool,
    trace_id: trace.id,
    label,
    status: trace.status,
    duration_ms: trace.durationMs,
    cache_hit: trace.cacheHit,
    cost_micros: trace.costMicros,
  };
}

/** The job's own trace: its model calls as spans, its sub-calls (each traced on its own) in the summary. */
function recordJobTrace(
  ctx: TenantContext,
  row: JobRow,
  state: ResearchState,
  origin: number,
  outcome: { status: "ok" | "partial" | "error"; error?: string },
): string {
  const id = crypto.randomUUID();
  // The model spans are already trace records with their charges: they join the record as stage spans do.
  const staged = withStageTrace(ctx);
  staged.add(state.spans);
  recordCallTrace(
    staged.ctx,
    {
      id,
      tool: "research",
      spanKind: "llm",
      started: origin,
      createdAt: row.startedAt ?? row.createdAt,
      input: row.input,
      secrets: [],
      charged: new Map(),
    },
    {
      status: outcome.status,
      cacheHit: false,
      spans: [],
      summary: {
        job_id: row.id,
        planner: state.plan?.planner,
        queries: state.plan?.queries,
        pages: state.pages?.map((page) => ({ url: page.url, ...("error" in page && { error: page.error }) })),
        sub_calls: state.sub_calls,
        ...(state.stop && { stop_reason: state.stop.reason }),
        cost_micros: state.cost_micros,
      },
      ...(outcome.error !== undefined && { error: new Error(outcome.error) }),
    },
  );
  return id;
}
