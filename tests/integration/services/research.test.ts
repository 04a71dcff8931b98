/**
 * Research jobs against fake search providers, a fake model and a fake site: a cited report whose every
 * citation is a page that was fetched, the model's plan and report, budgets running out mid-job (a
 * partial report with the reason), cancellation, the lease that keeps a job on one worker, and the job's
 * own trace listing every sub-call.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { researchJobs } from "@/lib/db/schema";
import type { Platform, TenantContext } from "@/lib/pipeline/context";
import { setBudget } from "@/lib/services/budgets/set-budget";
import { cancelResearch } from "@/lib/services/research/cancel-research";
import { getResearch } from "@/lib/services/research/get-research";
import { claimJob, writeJob } from "@/lib/services/research/job-lease";
import type { ResearchJobView } from "@/lib/services/research/job-view";
import { listResearch } from "@/lib/services/research/list-research";
import { startResearch } from "@/lib/services/research/start-research";
import { researchWorker } from "@/lib/services/research/worker";
import { createTenant } from "@/lib/services/tenants/create-tenant";
import { getTrace } from "@/lib/services/traces/get-trace";
import { FETCH_WIRES, fetchWireId } from "@/tests/fakes/fetch-wires";
import { type FakeProviders, startFakeProviders } from "@/tests/fakes/provider-server";
import { type ResearchSite, startResearchSite } from "@/tests/fakes/research-site";
import { SNIPPET_MODEL, SNIPPET_MODEL_WIRES, userMessage } from "@/tests/fakes/snippet-model-wire";
import { databaseTargets, type TestDatabase } from "@/tests/support/database";
import { systemCtx, tenantCtx, testPlatform } from "@/tests/support/platform";

const [pglite] = databaseTargets();
/** The fake site's search providers; the others would reach outside the test network. */
const PROVIDERS = ["duckduckgo", "brave"];

/** Every [n] in a report's body. */
const citations = (report: string) =>
  [...(report.split("## Sources")[0] ?? "").matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]));

describe("research jobs", () => {
  let t: TestDatabase;
  let fake: FakeProviders;
  let site: ResearchSite;
  let platform: Platform;
  let env: Record<string, string>;

  const newTenant = async (overrides: Partial<Platform> = {}) =>
    tenantCtx(
      { ...platform, ...overrides },
      (await createTenant({ ctx: systemCtx(platform), input: { name: "research" } })).id,
    );
  const withoutModel = () => ({ env: { ...env, SEARCHMUX_LLM_MODEL: "" } });
  /** Starts a job and waits for this process's worker to finish it. */
  async function research(ctx: TenantContext, input: Record<string, unknown>): Promise<ResearchJobView> {
    const job = await startResearch({
      ctx,
      input: { question: "How efficient are solar panels?", providers: PROVIDERS, ...input },
    });
    await researchWorker().idle();
    await platform.traces.flush();
    return getResearch({ ctx, input: { id: job.id } });
  }
  /** A queued job no worker was woken for (as if queued by another instance). */
  async function queueJob(ctx: TenantContext, question: string): Promise<string> {
    const [row] = await t.db.withTenant(ctx.tenantId, (tx) =>
      tx
        .insert(researchJobs)
        .values({
          tenantId: ctx.tenantId,
          surface: "cli",
          scopes: [...ctx.scopes],
          input: { question, max_queries: 2, max_pages: 2, providers: PROVIDERS },
        })
        .returning({ id: researchJobs.id }),
    );
    return row?.id ?? "";
  }
  /** The URLs the site served (each fetched page). */
  const fetched = () => new Set(site.hits().map((path) => `${site.origin}${path}`));

  beforeAll(async () => {
    if (!pglite) throw new Error("no database target");
    t = await pglite.create();
    fake = await startFakeProviders({ ...FETCH_WIRES, ...SNIPPET_MODEL_WIRES });
    site = await startResearchSite();
    env = {
      SEARCHMUX_FETCH_ALLOWLIST: "127.0.0.1",
      DUCKDUCKGO_BASE_URL: fake.baseUrlFor("duckduckgo"),
      BRAVE_BASE_URL: fake.baseUrlFor("brave"),
      BRAVE_API_KEY: "operator-brave",
      WIKIPEDIA_BASE_URL: fake.baseUrlFor("wikipedia"),
      JINA_READER_BASE_URL: fake.baseUrlFor(fetchWireId("jina")),
      SEARCHMUX_LLM_BASE_URL: fake.baseUrlFor(SNIPPET_MODEL),
      SEARCHMUX_LLM_MODEL: "report-writer",
      SEARCHMUX_LLM_API_KEY: "operator-llm-key-1234",
    };
    platform = testPlatform(t.db, { env });
  });
  afterAll(async () => {
    await researchWorker().idle();
    await site?.close();
    await fake?.close();
    await t?.cleanup();
  });
  beforeEach(() => {
    fake.resetScenarios();
    fake.clearRequests();
    fake.setScenario("duckduckgo", { results: site.results(1, 2, 3, 4) });
    fake.setScenario("brave", { results: site.results(3, 5, 6) });
  });

  it("without a model: searches the question's variants, reads the best pages and cites only what it read", async () => {
    const ctx = await newTenant(withoutModel());
    const job = await research(ctx, { max_queries: 3, max_pages: 4 });

    expect(job).toMatchObject({ status: "succeeded", partial: false, stop_reason: null, error: null });
    expect(job.progress).toMatchObject({ phase: "done", done: job.progress.total });
    const report = job.report ?? "";
    expect(report).toMatch(/^# How efficient are solar panels\?/);
    const cited = new Set(citations(report));
    expect(cited.size).toBeGreaterThan(0);
    expect([...cited].sort()).toEqual(job.sources.map((s) => s.n).sort());
    const read = fetched();
    for (const source of job.sources) {
      expect(read.has(source.url)).toBe(true);
      expect(source.found_by.length).toBeGreaterThan(0);
    }
    // Report 3 is listed by both providers: fusion reads it, and says who found it.
    const third = job.sources.find((s) => s.url.endsWith("/solar/3"));
    expect(new Set(third?.found_by.map((f) => f.provider))).toEqual(new Set(["duckduckgo", "brave"]));
    expect(report).not.toContain("[99]");

    const trace = await getTrace({ ctx, input: { id: job.trace_id ?? "" } });
    const summary = trace.summary as {
      sub_calls: Array<{ tool: string; trace_id: string }>;
      planner: string;
    };
    expect(trace.tool).toBe("research");
    expect(summary.planner).toBe("variants");
    expect(summary.sub_calls.map((c) => c.tool)).toEqual(["web_search", "web_search", "web_search", "fetch"]);
    for (const call of summary.sub_calls) {
      await expect(getTrace({ ctx, input: { id: call.trace_id } })).resolves.toMatchObject({
        tool: call.tool,
      });
    }
  });

  it("with the operator's model: plans the searches and writes the report, citations checked against the pages", async () => {
    const ctx = await newTenant();
    fake.setScenario(SNIPPET_MODEL, {
      payload: {
        rules: [
          {
            contains: "Research question:",
            reply: '["solar cell efficiency record", "photovoltaic conversion rate"]',
          },
          {
            contains: "Sources",
            reply: "Panels convert up to 16 percent of sunlight [1]. Some reach higher [2][9].",
          },
        ],
      },
    });
    const job = await research(ctx, { max_queries: 3, max_pages: 3 });

    expect(job.status).toBe("succeeded");
    const queries = fake.requests("brave").map((r) => r.query.q);
    expect(queries).toEqual(
      expect.arrayContaining(["solar cell efficiency record", "photovoltaic conversion rate"]),
    );
    const report = job.report ?? "";
    expect(report).toContain("Panels convert up to 16 percent of sunlight [1]");
    expect(citations(report)).not.toContain(9);
    for (const source of job.sources) expect(fetched().has(source.url)).toBe(true);
    const modelCalls = fake.requests(SNIPPET_MODEL);
    expect(modelCalls).toHaveLength(2);
    expect(modelCalls.map(userMessage).at(1)).toContain("Solar panel efficiency finding");

    const trace = await getTrace({ ctx, input: { id: job.trace_id ?? "" } });
    expect(trace.spans.map((s) => [s.provider, s.kind, s.outcome])).toEqual([
      ["llm", "llm", "ok"],
      ["llm", "llm", "ok"],
    ]);
  });

  it("with output_schema: data valid against it, each value citing pages that were read", async () => {
    const ctx = await newTenant();
    const outputSchema = {
      type: "object",
      properties: { efficiency: { type: "number" }, method: { type: "string" } },
      required: ["efficiency"],
    };
    const cited = { efficiency: 11, method: "measured over a year" };
    fake.setScenario(SNIPPET_MODEL, {
      payload: {
        rules: [
          // The first reply leaves a value uncited: the repair turn names it, the second cites both.
          {
            contains: "has no citation of a numbered source",
            reply: JSON.stringify({
              data: cited,
              citations: [
                { path: "/efficiency", sources: [1] },
                { path: "/method", sources: [1, 2, 40] },
              ],
            }),
          },
          {
            contains: "JSON Schema of the reply",
            reply: JSON.stringify({ data: cited, citations: [{ path: "/efficiency", sources: [1] }] }),
          },
          { contains: "Research question:", reply: '["solar efficiency"]' },
          { contains: "Sources", reply: "Panels convert 11 percent of sunlight [1]." },
        ],
      },
    });
    const job = await research(ctx, { max_queries: 2, max_pages: 3, output_schema: outputSchema });

    expect(job.status).toBe("succeeded");
    expect(job.data).toEqual(cited);
    const citedPages = Object.values(job.data_citations ?? {}).flat();
    expect(Object.keys(job.data_citations ?? {}).sort()).toEqual(["/efficiency", "/method"]);
    expect(job.data_citations?.["/method"]).toHaveLength(2); // source 40 was never read: dropped
    for (const url of citedPages) expect(fetched().has(url)).toBe(true);
    const structured = fake.requests(SNIPPET_MODEL).filter((r) => "response_format" in (r.body as object));
    expect(structured).toHaveLength(2);
    expect(structured[0]?.body).toMatchObject({ response_format: { type: "json_schema" } });
  });

  it("with output_schema and a priced operator model: its structured call charged by the tokens it used", async () => {
    // $1 and $2 per million tokens: the fake reports 100 prompt and 20 completion tokens, 140 micro-dollars.
    const ctx = await newTenant({ env: { ...env, SEARCHMUX_LLM_PRICE_PER_MTOK: "1,2" } });
    fake.setScenario(SNIPPET_MODEL, {
      payload: {
        rules: [
          {
            contains: "JSON Schema of the reply",
            reply: JSON.stringify({
              data: { efficiency: 11 },
              citations: [{ path: "/efficiency", sources: [1] }],
            }),
          },
          { contains: "Research question:", reply: '["solar efficiency"]' },
          { contains: "Sources", reply: "Panels convert 11 percent of sunlight [1]." },
        ],
      },
    });
    const job = await research(ctx, {
      max_queries: 1,
      max_pages: 2,
      output_schema: {
        type: "object",
        properties: { efficiency: { type: "number" } },
        required: ["efficiency"],
      },
    });

    expect(job.data).toEqual({ efficiency: 11 });
    const trace = await getTrace({ ctx, input: { id: job.trace_id ?? "" } });
    const structured = fake.requests(SNIPPET_MODEL).filter((r) => "response_format" in (r.body as object));
    expect(structured).toHaveLength(1);
    // The report (one query: no plan) is not priced by tokens; the structured call is, at what it used.
    expect(trace.spans.filter((s) => s.kind === "llm").map((s) => s.cost_usd)).toEqual([0, 140e-6]);
  });

  it("with output_schema and no model: the report, and data null with why", async () => {
    const ctx = await newTenant(withoutModel());
    const job = await research(ctx, {
      max_queries: 1,
      max_pages: 2,
      output_schema: { type: "object", properties: { a: { type: "string" } } },
    });
    expect(job).toMatchObject({
      status: "succeeded",
      data: null,
      data_error: expect.stringMatching(/operator model/),
    });
    await expect(
      startResearch({
        ctx,
        input: { question: "q", output_schema: { type: "object", properties: { a: { type: "nope" } } } },
      }),
    ).rejects.toMatchObject({ code: "invalid_input" });
  });

  it("stops searching when the budget runs out, and reports what it found, marked partial with the reason", async () => {
    const ctx = await newTenant(withoutModel());
    await setBudget({ ctx, input: { provider: "brave", metric: "requests", period: "day", limit: 1 } });
    fake.setScenario("duckduckgo", { status: 503 });
    const job = await research(ctx, { max_queries: 4, max_pages: 3 });

    expect(job).toMatchObject({ status: "succeeded", partial: true, stop_reason: "budget_exhausted" });
    expect(job.report).toContain("> Partial report:");
    expect(fake.requests("brave")).toHaveLength(1);
    expect(job.sources.length).toBeGreaterThan(0);
    for (const source of job.sources) expect(fetched().has(source.url)).toBe(true);
  });

  it("counts what its searches cost, and stops at max_cost_usd with a partial report", async () => {
    const ctx = await newTenant(withoutModel());
    fake.setScenario("duckduckgo", { status: 503 });
    const job = await research(ctx, { max_queries: 4, max_pages: 3, max_cost_usd: 0.009 });

    // Brave costs $0.005 a search: the second reaches the limit, so no third one starts.
    expect(fake.requests("brave")).toHaveLength(2);
    expect(job).toMatchObject({
      status: "succeeded",
      partial: true,
      stop_reason: "cost_limit",
      cost_usd: 0.01,
    });
    expect(job.report).toContain("max_cost_usd 0.009");
  });

  it("fails with the reason when budgets run out before anything was found", async () => {
    const ctx = await newTenant(withoutModel());
    await setBudget({ ctx, input: { provider: "brave", metric: "requests", period: "day", limit: 0 } });
    fake.setScenario("duckduckgo", { status: 503 });
    const job = await research(ctx, { max_queries: 2 });

    expect(job).toMatchObject({ status: "failed", report: null, stop_reason: "budget_exhausted" });
    expect(job.error).toMatch(/^budget_exhausted/);
  });

  it("fails with a clear reason when the searches find no usable result, reading nothing and writing no report", async () => {
    const ctx = await newTenant();
    fake.setScenario(SNIPPET_MODEL, {
      payload: { rules: [{ contains: "Research question:", reply: '["solar glass", "panel glass"]' }] },
    });
    fake.setScenario("duckduckgo", { results: [] });
    fake.setScenario("brave", { results: [] });
    const pagesBefore = site.hits().length;
    const job = await research(ctx, { max_queries: 2, max_pages: 3 });

    expect(job).toMatchObject({ status: "failed", report: null, sources: [], partial: false });
    expect(job.error).toBe("no usable search results: the 2 searches found no page to read");
    expect(fake.requests("brave")).toHaveLength(2);
    expect(site.hits()).toHaveLength(pagesBefore); // no page was read
    // The model planned the searches and was never asked for a report: the job paid for the plan only.
    expect(fake.requests(SNIPPET_MODEL).map(userMessage)).toEqual([
      expect.stringContaining("Research question:"),
    ]);
    const trace = await getTrace({ ctx, input: { id: job.trace_id ?? "" } });
    expect(trace).toMatchObject({ status: "error", error: job.error });
    expect(trace.spans.map((s) => [s.provider, s.outcome])).toEqual([["llm", "ok"]]);
    // Two searches at brave's $0.005, and nothing else.
    expect(job.cost_usd).toBe(0.01);
  });

  it("cancels a queued job at once", async () => {
    const ctx = await newTenant(withoutModel());
    const id = await queueJob(ctx, "solar panel prices");
    await expect(cancelResearch({ ctx, input: { id } })).resolves.toMatchObject({
      status: "cancelled",
      finished_at: expect.any(String),
    });
    await expect(cancelResearch({ ctx, input: { id } })).rejects.toMatchObject({ code: "conflict" });
    expect(await claimJob(t.db, "instance-a", 1_000)).toBeUndefined();
  });

  it("cancels a running job at its next heartbeat, aborting the search in flight", async () => {
    const ctx = await newTenant(withoutModel());
    fake.setScenario("duckduckgo", { results: site.results(1), latencyMs: 1_500 });
    fake.setScenario("brave", { results: site.results(2), latencyMs: 1_500 });
    const running = await startResearch({
      ctx,
      input: { question: "solar panel lifetime", providers: PROVIDERS, max_queries: 8 },
    });
    await expect
      .poll(async () => (await getResearch({ ctx, input: { id: running.id } })).status)
      .toBe("running");

    await expect(cancelResearch({ ctx, input: { id: running.id } })).resolves.toMatchObject({
      status: "running",
    });
    await expect
      .poll(async () => (await getResearch({ ctx, input: { id: running.id } })).status, { timeout: 10_000 })
      .toBe("cancelled");
    await researchWorker().idle();
    const { jobs } = await listResearch({ ctx, input: {} });
    expect(jobs.map((j) => [j.id, j.status])).toEqual([[running.id, "cancelled"]]);
    // It stopped searching: fewer searches than its plan.
    expect(fake.requests("duckduckgo").length).toBeLessThan(8);
  }, 20_000);

  it("lets one worker hold a job: another claims it only after the lease lapses, and the first then writes nothing", async () => {
    const ctx = await newTenant(withoutModel());
    const id = await queueJob(ctx, "solar leases");
    expect((await claimJob(t.db, "instance-a", 300))?.id).toBe(id);
    expect(await claimJob(t.db, "instance-b", 300)).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 400));
    const taken = await claimJob(t.db, "instance-b", 60_000);
    expect(taken).toMatchObject({ id, attempts: 2, leaseOwner: "instance-b" });
    expect(await writeJob(t.db, { id, owner: "instance-a" }, { status: "succeeded" })).toBe(false);
    expect(await writeJob(t.db, { id, owner: "instance-b" }, { status: "cancelled" })).toBe(true);
    await expect(getResearch({ ctx, input: { id } })).resolves.toMatchObject({ status: "cancelled" });
  });

  it("keeps jobs to their workspace and the member who started them", async () => {
    const owner = await newTenant(withoutModel());
    const id = await queueJob(owner, "private question");
    const stranger = await newTenant();
    await expect(getResearch({ ctx: stranger, input: { id } })).rejects.toMatchObject({ code: "not_found" });
    await expect(cancelResearch({ ctx: stranger, input: { id } })).rejects.toMatchObject({
      code: "not_found",
    });
    const member = {
      ...owner,
      scopes: ["search", "fetch"] as const,
      actor: { kind: "user" as const, userId: crypto.randomUUID() },
    };
    await expect(getResearch({ ctx: member, input: { id } })).rejects.toMatchObject({ code: "not_found" });
    await cancelResearch({ ctx: owner, input: { id } });
  });

  it("needs the search scope only (its page reads are part of it), and refuses bad input", async () => {
    const ctx = await newTenant(withoutModel());
    await expect(
      startResearch({ ctx: { ...ctx, scopes: ["fetch", "answer"] }, input: { question: "q" } }),
    ).rejects.toMatchObject({ code: "forbidden" });
    // admin only so the operator can read the job back; no fetch scope.
    const searchOnly = { ...ctx, scopes: ["search", "admin"] as const };
    const job = await research(searchOnly, { max_queries: 1, max_pages: 2 });
    expect(job.status).toBe("succeeded");
    expect(job.sources.length).toBeGreaterThan(0);
    await expect(startResearch({ ctx, input: { question: "" } })).rejects.toMatchObject({
      code: "invalid_input",
    });
    await expect(startResearch({ ctx, input: { question: "q", depth: 3 } as never })).rejects.toMatchObject({
      code: "invalid_input",
    });
  });
});
