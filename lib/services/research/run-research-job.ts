/**
 * One research job, run by the instance holding its lease: plan the sub-queries (the operator's model,
 * else plain variants), search each through web_search, read the best pages in one fetch of `urls`, and
 * write the cited report (the model, else extractive). Every sub-call is a call of the tool's own verb as
 * the job's starter — budgets, cache and a trace of its own — and each finished step is checkpointed, so an
 * instance that takes the job over repeats none of them. Budgets running out, the job's cost limit or its
 * deadline stop the searching: the report is written from what was found, marked partial with the reason.
 */
import type { ExtractEntry } from "@/lib/engine/extract/types";
import { planQueries } from "@/lib/engine/research/plan";
import { selectPages } from "@/lib/engine/research/select-pages";
import { structuredData } from "@/lib/engine/research/structured-data";
import type { ReadPage, ResearchModel } from "@/lib/engine/research/types";
import { writeReport } from "@/lib/engine/research/write-report";
import { linkedAbort } from "@/lib/engine/shared/abort";
import type { ProviderSpan } from "@/lib/engine/shared/types";
import type { Platform, TenantContext } from "@/lib/pipeline/context";
import { ServiceError } from "@/lib/pipeline/errors";
import { operatorModelPrice, withOperatorModel } from "@/lib/pipeline/providers/operator-providers";
import { tenantProviders } from "@/lib/pipeline/providers/tenant-providers";
import { completeChat } from "@/lib/providers/answer/openai-compatible";
import { operatorModelExtractor } from "@/lib/providers/extract/model";
import { isBatchError } from "@/lib/services/fetch/fetch-many";
import { fetchPage } from "@/lib/services/fetch/fetch-page";
import { tenantModel } from "@/lib/services/search/depth-stages";
import { stageBudget } from "@/lib/services/search/stage-budget";
import { stageSpanRecords } from "@/lib/services/search/stage-trace";
import { webSearch } from "@/lib/services/search/web-search";
import type { ResearchInput } from "./input";
import { jobContext } from "./job-context";
import { type JobRow, type JobUpdate, writeJob } from "./job-lease";
import { recordJobTrace, subCall } from "./job-trace";
import type { ResearchProgress, StopReason } from "./job-view";
import {
  hasResults,
  isReadPage,
  type PageStep,
  type ResearchState,
  type SearchStep,
  stateOf,
} from "./research-state";

/** How long one job may work in all, across instances, before it writes what it has. */
const JOB_DEADLINE_MS = 15 * 60_000;
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

/** One run of a job on this instance: its row, its checkpointed state and the context its calls run in. */
interface JobRun {
  platform: Platform;
  row: JobRow;
  control: JobControl;
  input: ResearchInput;
  state: ResearchState;
  startedAt: Date;
  /** performance.now() at the job's first start (on whichever instance): its spans' offsets count from it. */
  origin: number;
  /** The starter's context, its sub-calls' traces noted in `state`. */
  ctx: TenantContext;
  /** The same without that noting: the job's own trace is not a sub-call of itself. */
  base: TenantContext;
}

export async function runResearchJob(platform: Platform, row: JobRow, control: JobControl): Promise<void> {
  const run = resumeJob(platform, row, control);
  try {
    const model = await modelFor(run.ctx);
    const queries = await planStage(run, model);
    await searchStage(run, queries);
    const read = await readStage(run, queries);
    if ("failure" in read) return await failJob(run, read.failure);
    await writeStage(run, model, queries, read.pages);
  } catch (error) {
    await settleInterrupted(run, error);
  }
}

/** The job's run from its row: the checkpoint it left, if any, and its sub-calls counted as they end. */
function resumeJob(platform: Platform, row: JobRow, control: JobControl): JobRun {
  const state = stateOf(row.state);
  const startedAt = row.startedAt ?? new Date();
  const { ctx, base } = jobContext(platform, row, (trace) => {
    state.sub_calls.push(subCall(trace));
    state.cost_micros += trace.costMicros;
  });
  return {
    platform,
    row,
    control,
    input: row.input as ResearchInput,
    state,
    startedAt,
    origin: performance.now() - (Date.now() - startedAt.getTime()),
    ctx,
    base,
  };
}

/** The sub-queries, planned by the model (else plain variants) unless a checkpoint has them. */
async function planStage(run: JobRun, model: ResearchModel | undefined): Promise<string[]> {
  const { state, input } = run;
  if (state.plan) return state.plan.queries;
  await checkpoint(run, { phase: "planning", message: "planning the searches", done: 0 });
  const plan = await modelStep(run.ctx, state, model, run.control.signal, (researchModel, deadline) =>
    planQueries({
      question: input.question,
      count: input.max_queries,
      model: researchModel,
      deadline,
      origin: run.origin,
    }),
  );
  state.plan = { queries: plan.queries, planner: plan.planner };
  return state.plan.queries;
}

/** Each sub-query not searched yet, until one of the stop conditions holds. */
async function searchStage(run: JobRun, queries: string[]): Promise<void> {
  const { state } = run;
  for (const [index, query] of queries.entries()) {
    if (state.searches[query]) continue;
    state.stop = stopWhy(run);
    if (state.stop) break;
    await checkpoint(run, { phase: "searching", message: `searching: ${query}`, done: 1 + index });
    state.searches[query] = await search(run.ctx, query, run.input, run.control.signal, state);
  }
}

/** The best pages of the searches' results, read in one fetch unless a checkpoint has them. */
async function readStage(
  run: JobRun,
  queries: string[],
): Promise<{ pages: ReadPage[] } | { failure: string }> {
  const { state } = run;
  if (!state.pages) {
    const found = queries.flatMap((query) => {
      const step = state.searches[query];
      return hasResults(step) && step.results.length > 0 ? [{ query, results: step.results }] : [];
    });
    const candidates = selectPages(found, run.input.max_pages);
    // Nothing to read: the job fails with why, before any page is fetched or the model writes a report.
    if (candidates.length === 0) return { failure: noResults(state) };
    await checkpoint(run, {
      phase: "reading",
      message: `reading ${candidates.length} pages`,
      done: 1 + queries.length,
    });
    state.pages = await read(run.ctx, candidates, run.control.signal);
  }
  const pages = state.pages.filter(isReadPage);
  if (pages.length === 0) return { failure: `none of the ${state.pages.length} chosen pages could be read` };
  return { pages };
}

/** The cited report (the model, else extractive), marked partial when a stop condition cut the searching. */
async function writeStage(
  run: JobRun,
  model: ResearchModel | undefined,
  queries: string[],
  pages: ReadPage[],
): Promise<void> {
  const { state } = run;
  await checkpoint(run, { phase: "writing", message: "writing the report", done: 2 + queries.length });
  const stop = state.stop ?? stopWhy(run);
  const written = await modelStep(run.ctx, state, model, run.control.signal, (researchModel, deadline) =>
    writeReport({
      question: run.input.question,
      pages,
      model: researchModel,
      deadline,
      origin: run.origin,
      partialReason: stop?.detail,
    }),
  );
  await dataStage(run, pages);
  const traceId = recordJobTrace(run.base, run.row, state, run.origin, { status: stop ? "partial" : "ok" });
  await save(run, {
    status: "succeeded",
    state,
    progress: {
      phase: "done",
      message: stop ? `partial: ${stop.detail}` : "done",
      done: totalSteps(run),
      total: totalSteps(run),
    },
    report: written.report,
    sources: written.sources,
    partial: stop !== undefined,
    stopReason: stop?.reason ?? null,
    traceId,
  });
}

/**
 * A step that threw: a lost lease leaves the job to its new holder, a cancellation is recorded as such,
 * anything else fails the job. Writing that outcome may itself fail; the lease then lapses and another
 * instance takes the job over.
 */
async function settleInterrupted(run: JobRun, error: unknown): Promise<void> {
  const { signal } = run.control;
  if (error instanceof LeaseLost) return;
  if (signal.aborted && signal.reason === CANCELLED) {
    await save(run, {
      status: "cancelled",
      state: run.state,
      progress: { phase: "done", message: "cancelled", done: 0, total: totalSteps(run) },
    }).catch(() => {});
    return;
  }
  if (signal.aborted) return; // the lease was lost mid-step: the new holder carries on
  await failJob(run, error instanceof ServiceError ? `${error.code}: ${error.message}` : String(error)).catch(
    () => {},
  );
}

async function failJob(run: JobRun, message: string): Promise<void> {
  const { state } = run;
  const traceId = recordJobTrace(run.base, run.row, state, run.origin, { status: "error", error: message });
  await save(run, {
    status: "failed",
    state,
    progress: { phase: "done", message: "failed", done: 0, total: totalSteps(run) },
    error: message,
    stopReason: state.stop?.reason ?? null,
    traceId,
  });
}

/** Writes to the job's row while the lease is ours; throws LeaseLost once it is not. */
async function save(run: JobRun, update: JobUpdate): Promise<void> {
  if (!(await writeJob(run.platform.db, { id: run.row.id, owner: run.control.owner }, update))) {
    throw new LeaseLost();
  }
}

/** Saves the state after a finished step, with the progress people see. */
function checkpoint(run: JobRun, progress: Omit<ResearchProgress, "total">): Promise<void> {
  return save(run, { state: run.state, progress: { ...progress, total: totalSteps(run) } });
}

/** The plan, each search, the reading and the report. */
function totalSteps(run: JobRun): number {
  return 1 + (run.state.plan?.queries.length ?? run.input.max_queries) + 2;
}

/** Why the searching stops early: an earlier stop, the job's deadline or its cost limit. */
function stopWhy(run: JobRun): { reason: StopReason; detail: string } | undefined {
  const { state, input } = run;
  if (state.stop) return state.stop;
  if (Date.now() - run.startedAt.getTime() > JOB_DEADLINE_MS) {
    return { reason: "deadline", detail: `the job's ${JOB_DEADLINE_MS / 60_000}-minute limit was reached` };
  }
  if (input.max_cost_usd !== undefined && state.cost_micros >= input.max_cost_usd * 1_000_000) {
    return { reason: "cost_limit", detail: `the job's calls reached max_cost_usd ${input.max_cost_usd}` };
  }
  return undefined;
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
        state.cost_micros += record.cost_micros;
      }
    }
    signal.throwIfAborted();
    return result;
  } finally {
    deadline.dispose();
  }
}

/**
 * With output_schema: the pages read filled into it by the operator model, each value cited (its call admitted
 * and traced like the report's). Without a model the job still succeeds, its data null with why.
 */
async function dataStage(run: JobRun, pages: ReadPage[]): Promise<void> {
  const { state, input } = run;
  if (!input.output_schema || state.data) return;
  const entry = await extractModelFor(run.ctx);
  if (!entry) {
    state.data = {
      error: "output_schema needs the operator model (SEARCHMUX_LLM_BASE_URL and SEARCHMUX_LLM_MODEL)",
    };
    return;
  }
  const deadline = linkedAbort(
    [run.control.signal],
    MODEL_TIMEOUT_MS,
    `the model did not answer within ${MODEL_TIMEOUT_MS} ms`,
  );
  const budget = stageBudget(run.ctx);
  try {
    const { result, spans } = await structuredData({
      question: input.question,
      pages,
      schema: input.output_schema,
      entry,
      admit: budget.admitter("llm", [entry]),
      deadline: deadline.signal,
      origin: run.origin,
    });
    const records = stageSpanRecords(spans, await budget.close(), entry.apiKey ? [entry.apiKey] : []);
    state.spans.push(...records);
    state.cost_micros += records.reduce((sum, record) => sum + record.cost_micros, 0);
    run.control.signal.throwIfAborted();
    state.data = result;
  } finally {
    deadline.dispose();
  }
}

/** The operator model as an extractor (Structured Outputs), with its price per token when one is set. */
async function extractModelFor(ctx: TenantContext): Promise<ExtractEntry | undefined> {
  const { available } = await tenantProviders(ctx, [operatorModelExtractor]);
  const [entry] = withOperatorModel(available, ctx.env);
  const price = operatorModelPrice(ctx.env);
  return entry?.model ? { ...entry, ...(price && { price }) } : undefined;
}

/** The web search of one sub-query. */
export const subQuerySearch = (query: string, input: Pick<ResearchInput, "providers">) => ({
  query,
  max_results: 10,
  timeout_ms: SEARCH_TIMEOUT_MS,
  providers: input.providers,
});

async function search(
  ctx: TenantContext,
  query: string,
  input: ResearchInput,
  signal: AbortSignal,
  state: ResearchState,
): Promise<SearchStep> {
  try {
    const result = await webSearch({ ctx, input: subQuerySearch(query, input), signal });
    return {
      results: result.results.map(({ url, title, snippet, sources, publishedAt }) => ({
        url,
        title,
        snippet,
        sources,
        ...(publishedAt && { publishedAt }),
      })),
    };
  } catch (error) {
    signal.throwIfAborted();
    if (!(error instanceof ServiceError)) throw error;
    // Budgets refused some provider and nothing answered: more searching would only spend the rest.
    if (error.code === "budget_exhausted") {
      state.stop = { reason: "budget_exhausted", detail: error.message };
    } else if (error.code !== "all_providers_failed" && error.code !== "rate_limited") {
      // Every provider failed, or is rate limited or out of quota for now: that search found nothing, the
      // job goes on. Anything else leaves nothing to search with (no provider, invalid providers).
      throw error;
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
    const { url, found_by, published_at } = candidate;
    const known = { url, found_by, ...(published_at && { published_at }) };
    if (!item || isBatchError(item)) {
      return { ...known, title: candidate.title, error: item?.error.message ?? "not fetched" };
    }
    if (item.content.trim() === "")
      return { ...known, title: candidate.title, error: "the page had no text" };
    return { ...known, title: item.title || candidate.title, content: item.content };
  });
}

/** Why a job has no page to read: a stop, failed searches, or searches that found no usable result. */
function noResults(state: ResearchState): string {
  const steps = Object.values(state.searches);
  const errors = steps.flatMap((step) => ("error" in step ? [step.error] : []));
  if (state.stop) return `${state.stop.reason}: ${state.stop.detail}`;
  if (errors.length === steps.length && errors.length > 0)
    return `every search failed — ${errors.join("; ")}`;
  const failed = errors.length > 0 ? ` (${errors.length} failed — ${errors.join("; ")})` : "";
  return `no usable search results: the ${steps.length} searches found no page to read${failed}`;
}
