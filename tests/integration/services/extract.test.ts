/**
 * The extract tool's verb against fixture pages, the fake model (Structured Outputs) and Firecrawl's JSON
 * format: schema-valid data per URL, the caller's schema refused when invalid, oversize or too deep, the URL
 * checks of fetch, a page too long for the model, one repair then invalid_output, token pricing charged and
 * trimmed to what the model used, the per-URL cache, passages checked against the page, and its threat
 * model's lines (scope, budgets, per-tenant cache, what errors say).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Platform, TenantContext } from "@/lib/pipeline/context";
import { ServiceError } from "@/lib/pipeline/errors";
import { budgetStatus } from "@/lib/services/budgets/budget-status";
import { setBudget } from "@/lib/services/budgets/set-budget";
import { estimateExtract } from "@/lib/services/extract/estimate-extract";
import { extract } from "@/lib/services/extract/extract";
import { createTenant } from "@/lib/services/tenants/create-tenant";
import { getTrace } from "@/lib/services/traces/get-trace";
import { EXTRACT_WIRES, FIRECRAWL_EXTRACT } from "@/tests/fakes/extract-wires";
import { FETCH_WIRES, fetchWireId } from "@/tests/fakes/fetch-wires";
import { type FakeProviders, startFakeProviders } from "@/tests/fakes/provider-server";
import { type ResearchSite, startResearchSite } from "@/tests/fakes/research-site";
import { SNIPPET_MODEL, SNIPPET_MODEL_WIRES } from "@/tests/fakes/snippet-model-wire";
import { primaryTarget, type TestDatabase } from "@/tests/support/database";
import { systemCtx, tenantCtx, testPlatform } from "@/tests/support/platform";

const SCHEMA = {
  type: "object",
  properties: { design: { type: "integer" }, percent: { type: "number" } },
  required: ["design", "percent"],
  additionalProperties: false,
};
/** What the fake model answers for solar report n (its fact: design n converts 10 + n percent). */
const answerFor = (n: number) => ({
  contains: `Solar report ${n} <`,
  reply: JSON.stringify({ design: n, percent: 10 + n }),
});

describe.each(primaryTarget())("extract ($name)", (target) => {
  let t: TestDatabase;
  let fake: FakeProviders;
  let site: ResearchSite;
  let longPage: http.Server;
  let longUrl: string;
  let platform: Platform;
  let env: Record<string, string>;

  const newTenant = async (overrides: Partial<Platform> = {}, scopes?: TenantContext["scopes"]) =>
    tenantCtx(
      { ...platform, ...overrides },
      (await createTenant({ ctx: systemCtx(platform), input: { name: "extract" } })).id,
      scopes,
    );
  const modelRequests = () => fake.requests(SNIPPET_MODEL);
  const page = (n: number) => `${site.origin}/solar/${n}`;

  beforeAll(async () => {
    t = await target.create();
    fake = await startFakeProviders({ ...FETCH_WIRES, ...SNIPPET_MODEL_WIRES, ...EXTRACT_WIRES });
    site = await startResearchSite();
    longPage = http.createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/plain; charset=utf-8" });
      res.end("Solar panels convert light. ".repeat(3_000));
    });
    await new Promise<void>((resolve) => longPage.listen(0, "127.0.0.1", resolve));
    longUrl = `http://127.0.0.1:${(longPage.address() as AddressInfo).port}/long.txt`;
    env = {
      SEARCHMUX_FETCH_ALLOWLIST: "127.0.0.1",
      JINA_READER_BASE_URL: fake.baseUrlFor(fetchWireId("jina")),
      SEARCHMUX_LLM_BASE_URL: fake.baseUrlFor(SNIPPET_MODEL),
      SEARCHMUX_LLM_MODEL: "extractor",
      SEARCHMUX_LLM_API_KEY: "operator-llm-key-1234",
      // $1 and $2 per million tokens: the fake reports 100 prompt and 20 completion tokens, 140 micro-dollars.
      SEARCHMUX_LLM_PRICE_PER_MTOK: "1,2",
    };
    platform = testPlatform(t.db, { env });
  });
  afterAll(async () => {
    longPage?.closeAllConnections();
    await new Promise<void>((resolve) => (longPage ? longPage.close(() => resolve()) : resolve()));
    await site?.close();
    await fake?.close();
    await t?.cleanup();
  });
  beforeEach(() => {
    fake.resetScenarios();
    fake.clearRequests();
    fake.setScenario(SNIPPET_MODEL, { payload: { rules: [1, 2, 3].map(answerFor) } });
  });

  it("fills the schema from each fixture page with the model's structured output, in input order", async () => {
    const ctx = await newTenant();
    const result = await extract({ ctx, input: { urls: [page(2), page(1), page(3)], schema: SCHEMA } });

    expect(result.results).toEqual([
      { url: page(2), provider: "llm", data: { design: 2, percent: 12 }, cache_hit: false },
      { url: page(1), provider: "llm", data: { design: 1, percent: 11 }, cache_hit: false },
      { url: page(3), provider: "llm", data: { design: 3, percent: 13 }, cache_hit: false },
    ]);
    const [request] = modelRequests();
    expect(request?.body).toMatchObject({
      model: "extractor",
      response_format: {
        type: "json_schema",
        json_schema: { name: "extraction", schema: SCHEMA, strict: true },
      },
      max_completion_tokens: 4096,
    });
    expect(request?.headers.authorization).toBe("Bearer operator-llm-key-1234");
    await platform.traces.flush();
    const trace = await getTrace({ ctx, input: { id: result.trace_id } });
    expect(trace.tool).toBe("extract");
    expect(trace.spans.map((s) => `${s.kind}:${s.provider}:${s.outcome}`).sort()).toEqual([
      "fetch:direct:ok",
      "fetch:direct:ok",
      "fetch:direct:ok",
      "llm:llm:ok",
      "llm:llm:ok",
      "llm:llm:ok",
    ]);
    expect(JSON.stringify(trace)).not.toContain("operator-llm-key-1234");
  });

  it("charges each model call by the tokens it used, the reservation trimmed, and answers a repeat from the cache", async () => {
    const ctx = await newTenant();
    await setBudget({ ctx, input: { provider: "llm", metric: "usd", period: "month", limit: 1 } });
    const first = await extract({ ctx, input: { urls: [page(1), page(2)], schema: SCHEMA } });
    expect(first.results.every((item) => "data" in item)).toBe(true);
    await platform.pending.settled();
    await platform.usage.flush();
    const usage = await budgetStatus({ ctx });
    const llm = usage.providers.find((p) => p.provider === "llm");
    expect(llm?.requests.today).toBe(2);
    expect(llm?.usd.today).toBeCloseTo(2 * 140e-6, 9);
    const budget = usage.budgets.find((b) => b.provider === "llm");
    expect(budget?.used).toBeCloseTo(2 * 140e-6, 9);

    fake.clearRequests();
    const again = await extract({ ctx, input: { urls: [page(1), page(2)], schema: SCHEMA } });
    expect(again.results.map((item) => item.cache_hit)).toEqual([true, true]);
    expect(modelRequests()).toHaveLength(0);
    expect(site.hits().length).toBeGreaterThan(0);

    // Another workspace's same call reads its own cache: nothing of this one's.
    const other = await newTenant();
    const theirs = await extract({ ctx: other, input: { urls: [page(1)], schema: SCHEMA } });
    expect(theirs.results[0]?.cache_hit).toBe(false);
  });

  it("refuses a model call its reservation would take past a budget, and the page says why", async () => {
    const ctx = await newTenant();
    // The reservation (a token per prompt character plus a full reply) is far above 1,000 micro-dollars.
    await setBudget({ ctx, input: { provider: "llm", metric: "usd", period: "month", limit: 0.001 } });
    const result = await extract({ ctx, input: { urls: [page(1)], schema: SCHEMA } });
    expect(result.results[0]).toMatchObject({ url: page(1), error: { code: "budget_exhausted" } });
    expect(modelRequests()).toHaveLength(0);
  });

  it("repairs once with the validation errors, then answers invalid_output saying why", async () => {
    const ctx = await newTenant();
    fake.setScenario(SNIPPET_MODEL, {
      payload: {
        rules: [
          { contains: "does not match the JSON Schema", reply: JSON.stringify({ design: 1, percent: 11 }) },
          { contains: "Solar report 1 <", reply: JSON.stringify({ design: "one" }) },
          { contains: "Solar report 2 <", reply: "not json at all" },
        ],
      },
    });
    const repaired = await extract({ ctx, input: { urls: [page(1)], schema: SCHEMA } });
    expect(repaired.results[0]).toMatchObject({ data: { design: 1, percent: 11 } });
    const repair = modelRequests()[1]?.body as { messages: Array<{ role: string; content: string }> };
    expect(repair.messages.at(-2)).toEqual({ role: "assistant", content: JSON.stringify({ design: "one" }) });
    expect(repair.messages.at(-1)?.content).toMatch(/\/design must be integer/);

    fake.setScenario(SNIPPET_MODEL, {
      payload: { rules: [{ contains: "Solar report 2 <", reply: JSON.stringify({ design: "two" }) }] },
    });
    fake.clearRequests();
    const invalid = await extract({ ctx, input: { urls: [page(2)], schema: SCHEMA } });
    expect(invalid.results[0]).toMatchObject({
      url: page(2),
      error: {
        code: "invalid_output",
        message: expect.stringMatching(/after one repair: .*\/design must be integer/),
      },
    });
    expect(modelRequests()).toHaveLength(2);
  });

  it("refuses a page longer than the model is given, and a private address before anything reads it", async () => {
    const ctx = await newTenant();
    const result = await extract({
      ctx,
      input: { urls: [longUrl, "http://10.1.2.3/admin"], schema: SCHEMA },
    });
    expect(result.results[0]).toMatchObject({
      url: longUrl,
      error: {
        code: "page_too_long",
        message: expect.stringMatching(/has 8\d{4} characters of text; a model is given at most 60000/),
      },
    });
    expect(result.results[1]).toMatchObject({
      url: "http://10.1.2.3/admin",
      error: { code: "invalid_input" },
    });
    expect(modelRequests()).toHaveLength(0);
  });

  it.each([
    [
      "an invalid schema",
      { type: "object", properties: { a: { type: "strnig" } } },
      /not a valid JSON Schema/,
    ],
    ["a schema that is not an object's", { type: "array" }, /"type": "object"/],
    [
      "a regular expression",
      { type: "object", properties: { a: { type: "string", pattern: "(a+)+$" } } },
      /pattern/,
    ],
    [
      "an oversize schema",
      {
        type: "object",
        properties: Object.fromEntries(
          Array.from({ length: 800 }, (_, i) => [`field_${i}`, { type: "string" }]),
        ),
      },
      /bytes as JSON; at most 16384/,
    ],
    [
      "a too deep schema",
      JSON.parse(`${'{"type":"object","properties":{"a":'.repeat(8)}{"type":"string"}${"}}".repeat(8)}`),
      /more than 12 levels/,
    ],
  ])("refuses %s with invalid_input naming the limit, before any call", async (_what, schema, message) => {
    const ctx = await newTenant();
    const hits = site.hits().length;
    const call = extract({ ctx, input: { urls: [page(1)], schema } });
    await expect(call).rejects.toMatchObject({ code: "invalid_input", message });
    expect(modelRequests()).toHaveLength(0);
    expect(site.hits()).toHaveLength(hits);
  });

  it("refuses more than 20 URLs and a token without the fetch scope", async () => {
    const ctx = await newTenant();
    const urls = Array.from({ length: 21 }, (_, i) => `${site.origin}/solar/${(i % 8) + 1}?${i}`);
    await expect(extract({ ctx, input: { urls, schema: SCHEMA } })).rejects.toMatchObject({
      code: "invalid_input",
    });
    const searchOnly = await newTenant({}, ["search"]);
    await expect(
      extract({ ctx: searchOnly, input: { urls: [page(1)], schema: SCHEMA } }),
    ).rejects.toBeInstanceOf(ServiceError);
    expect(modelRequests()).toHaveLength(0);
  });

  it("keeps only the passages the page holds", async () => {
    const ctx = await newTenant();
    const reply = {
      data: { design: 4, percent: 14 },
      passages: [
        { path: "/percent", text: "panels of design 4 convert 14 percent of sunlight" },
        { path: "/design", text: "a sentence the page never had" },
      ],
    };
    fake.setScenario(SNIPPET_MODEL, {
      payload: { rules: [{ contains: "Solar report 4 <", reply: JSON.stringify(reply) }] },
    });
    const result = await extract({ ctx, input: { urls: [page(4)], schema: SCHEMA, include_passages: true } });
    expect(result.results[0]).toMatchObject({
      data: { design: 4, percent: 14 },
      passages: [{ path: "/percent", text: "panels of design 4 convert 14 percent of sunlight" }],
    });
    const sent = modelRequests()[0]?.body as {
      response_format: { json_schema: { schema: { required: string[] } } };
    };
    expect(sent.response_format.json_schema.schema.required).toEqual(["data", "passages"]);
  });

  it("uses Firecrawl's JSON format first where the workspace has a Firecrawl key", async () => {
    const ctx = await newTenant({
      env: {
        ...env,
        FIRECRAWL_API_KEY: "fc-operator-key",
        FIRECRAWL_BASE_URL: fake.baseUrlFor(FIRECRAWL_EXTRACT),
      },
    });
    fake.setScenario(FIRECRAWL_EXTRACT, { payload: { json: { design: 5, percent: 15 } } });
    const estimate = await estimateExtract({ ctx, input: { urls: [page(5)], schema: SCHEMA } });
    expect(estimate.providers).toEqual(["firecrawl", "direct", "jina", "llm"]);
    const result = await extract({
      ctx,
      input: { urls: [page(5)], schema: SCHEMA, prompt: "the panel design" },
    });
    expect(result.results[0]).toMatchObject({ provider: "firecrawl", data: { design: 5, percent: 15 } });
    expect(fake.requests(FIRECRAWL_EXTRACT)[0]?.body).toEqual({
      url: page(5),
      formats: [{ type: "json", schema: SCHEMA, prompt: "the panel design" }],
      onlyMainContent: true,
    });
    expect(modelRequests()).toHaveLength(0);
  });

  it("answers no_provider_configured without the operator model or a Firecrawl key", async () => {
    const ctx = await newTenant({ env: { ...env, SEARCHMUX_LLM_MODEL: "" } });
    await expect(extract({ ctx, input: { urls: [page(1)], schema: SCHEMA } })).rejects.toMatchObject({
      code: "no_provider_configured",
    });
  });
});
