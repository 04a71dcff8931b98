/**
 * The workspace's own model (`workspace_llm`) for extract, against the fake OpenAI-compatible server: its
 * settings checked when saved, structured output from it before the operator's model, its tokens charged at the
 * workspace's price to its own budgets (a budget refusing before anything is sent), the estimate, the key test,
 * and each line of its threat model: the SSRF guard at save and at every call (loopback, metadata, a name
 * resolving to a private address, DNS rebinding, https), errors without the endpoint's body, no key in a trace
 * or the log, the key bound to its base URL, and no other workspace ever using it.
 */
import dns from "node:dns";
import { syncBuiltinESMExports } from "node:module";
import { Writable } from "node:stream";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { providerKeys } from "@/lib/db/schema";
import { modelCallCeilingMicros } from "@/lib/engine/extract/extract-page";
import { createLogger, log, replaceLogger } from "@/lib/observability/logger";
import type { Platform, TenantContext } from "@/lib/pipeline/context";
import { forgetTenantKeys } from "@/lib/pipeline/providers/resolve-keys";
import { budgetStatus } from "@/lib/services/budgets/budget-status";
import { setBudget } from "@/lib/services/budgets/set-budget";
import { estimateExtract } from "@/lib/services/extract/estimate-extract";
import { extract } from "@/lib/services/extract/extract";
import { listKeys } from "@/lib/services/keys/list-keys";
import { setKey } from "@/lib/services/keys/set-key";
import { testKey } from "@/lib/services/keys/test-key";
import { providerStatus } from "@/lib/services/providers/provider-status";
import { getTrace } from "@/lib/services/traces/get-trace";
import { FETCH_WIRES, fetchWireId } from "@/tests/fakes/fetch-wires";
import { type FakeProviders, startFakeProviders } from "@/tests/fakes/provider-server";
import { type ResearchSite, startResearchSite } from "@/tests/fakes/research-site";
import { SNIPPET_MODEL, SNIPPET_MODEL_WIRES } from "@/tests/fakes/snippet-model-wire";
import { databaseTargets, type TestDatabase } from "@/tests/support/database";
import { testPlatform } from "@/tests/support/platform";
import { twoTenants } from "@/tests/support/two-tenants";

const SCHEMA = {
  type: "object",
  properties: { design: { type: "integer" }, percent: { type: "number" } },
  required: ["design", "percent"],
  additionalProperties: false,
};
const WORKSPACE_KEY = "sk-workspace-own-model-key-7f3e";
const OPERATOR_KEY = "operator-llm-key-1234";
const WORKSPACE_MODEL = "workspace-model";
/** $3 and $5 per million tokens: the fake reports 100 prompt and 20 completion tokens, 400 micro-dollars. */
const PRICE = { input: 3, output: 5 };
const CALL_MICROS = 100 * PRICE.input + 20 * PRICE.output;

/** Names this file's resolver answers itself (every other lookup goes to the test network's). */
const dnsAnswers = new Map<string, string>();
const guardedLookup = dns.promises.lookup;

describe.each(databaseTargets())("the workspace model ($name)", (target) => {
  let t: TestDatabase;
  let fake: FakeProviders;
  let site: ResearchSite;
  let platform: Platform;
  let env: Record<string, string>;
  const logLines: string[] = [];
  const previousLogger = log();

  const page = (n: number) => `${site.origin}/solar/${n}`;
  const modelRequests = () => fake.requests(SNIPPET_MODEL);
  const byWorkspaceModel = () =>
    modelRequests().filter((r) => (r.body as { model?: string }).model === WORKSPACE_MODEL);
  const tenants = () => twoTenants(platform);
  /** A context on the same workspace and keyring with other operator settings. */
  const withEnv = (ctx: TenantContext, overrides: Record<string, string | undefined>): TenantContext => ({
    ...ctx,
    env: { ...ctx.env, ...overrides },
  });
  const storeOwnModel = (ctx: TenantContext, settings: Record<string, unknown> = {}) =>
    setKey({
      ctx,
      input: {
        provider: "workspace_llm",
        key: WORKSPACE_KEY,
        base_url: fake.baseUrlFor(SNIPPET_MODEL),
        model: WORKSPACE_MODEL,
        price_per_mtok: PRICE,
        ...settings,
      },
    });
  const refusal = async (promise: Promise<unknown>) => {
    const error = await promise.then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toMatchObject({ code: "invalid_input" });
    return error as { message: string; details: Array<{ path: string; message: string }> };
  };

  beforeAll(async () => {
    t = await target.create();
    fake = await startFakeProviders({ ...FETCH_WIRES, ...SNIPPET_MODEL_WIRES });
    site = await startResearchSite();
    env = {
      SEARCHMUX_FETCH_ALLOWLIST: "127.0.0.1",
      JINA_READER_BASE_URL: fake.baseUrlFor(fetchWireId("jina")),
      SEARCHMUX_LLM_BASE_URL: fake.baseUrlFor(SNIPPET_MODEL),
      SEARCHMUX_LLM_MODEL: "extractor",
      SEARCHMUX_LLM_API_KEY: OPERATOR_KEY,
      SEARCHMUX_LLM_PRICE_PER_MTOK: "1,2",
    };
    platform = testPlatform(t.db, { env });
    replaceLogger(
      createLogger(
        new Writable({
          write(chunk, _encoding, done) {
            logLines.push(String(chunk));
            done();
          },
        }),
        "debug",
      ),
    );
    dns.promises.lookup = ((hostname: string, ...rest: unknown[]) => {
      const address = dnsAnswers.get(hostname);
      if (address === undefined) return Reflect.apply(guardedLookup, dns.promises, [hostname, ...rest]);
      return Promise.resolve([{ address, family: 4 }]);
    }) as typeof dns.promises.lookup;
    syncBuiltinESMExports();
  });
  afterAll(async () => {
    dns.promises.lookup = guardedLookup;
    syncBuiltinESMExports();
    replaceLogger(previousLogger);
    await site?.close();
    await fake?.close();
    await t?.cleanup();
  });
  beforeEach(() => {
    dnsAnswers.clear();
    fake.resetScenarios();
    fake.clearRequests();
    fake.setScenario(SNIPPET_MODEL, {
      payload: {
        rules: [1, 2, 3].map((n) => ({
          contains: `Solar report ${n} <`,
          reply: JSON.stringify({ design: n, percent: 10 + n }),
        })),
      },
    });
  });

  it("fills the schema with the workspace's model before the operator's, asking for structured output with its key", async () => {
    const { a } = await tenants();
    expect(await storeOwnModel(a)).toEqual({ provider: "workspace_llm", last4: "7f3e", status: "unknown" });
    const result = await extract({ ctx: a, input: { urls: [page(1), page(2)], schema: SCHEMA } });

    expect(result.results).toEqual([
      { url: page(1), provider: "workspace_llm", data: { design: 1, percent: 11 }, cache_hit: false },
      { url: page(2), provider: "workspace_llm", data: { design: 2, percent: 12 }, cache_hit: false },
    ]);
    expect(modelRequests()).toHaveLength(2);
    for (const request of modelRequests()) {
      expect(request.headers.authorization).toBe(`Bearer ${WORKSPACE_KEY}`);
      expect(request.body).toMatchObject({
        model: WORKSPACE_MODEL,
        response_format: {
          type: "json_schema",
          json_schema: { name: "extraction", schema: SCHEMA, strict: true },
        },
      });
    }
    await platform.traces.flush();
    const trace = await getTrace({ ctx: a, input: { id: result.trace_id } });
    expect(trace.spans.filter((s) => s.kind === "llm").map((s) => `${s.provider}:${s.outcome}`)).toEqual([
      "workspace_llm:ok",
      "workspace_llm:ok",
    ]);
    expect(trace.summary).toMatchObject({
      urls: [
        { url: page(1), provider: "workspace_llm", model: WORKSPACE_MODEL },
        { url: page(2), provider: "workspace_llm", model: WORKSPACE_MODEL },
      ],
    });
    expect(JSON.stringify(trace)).not.toContain(WORKSPACE_KEY);
  });

  it("charges its tokens at the workspace's price to the workspace's budgets, and the estimate holds it", async () => {
    const { a } = await tenants();
    await storeOwnModel(a);
    await setBudget({
      ctx: a,
      input: { provider: "workspace_llm", metric: "usd", period: "month", limit: 1 },
    });
    const estimate = await estimateExtract({ ctx: a, input: { urls: [page(1)], schema: SCHEMA } });
    expect(estimate.providers).toEqual(["direct", "jina", "workspace_llm", "llm"]);
    // Two calls a page (the first and its repair) at the most one can be reserved at, at the workspace's price.
    const ceiling = modelCallCeilingMicros(
      { inputPerMillion: PRICE.input, outputPerMillion: PRICE.output },
      JSON.stringify(SCHEMA).length,
      0,
    );
    expect(estimate.maxCostMicros).toBeGreaterThanOrEqual(2 * ceiling);
    const result = await extract({ ctx: a, input: { urls: [page(1), page(2)], schema: SCHEMA } });
    expect(result.results.every((item) => "data" in item)).toBe(true);
    await platform.pending.settled();
    await platform.usage.flush();

    const status = await budgetStatus({ ctx: a });
    const own = status.providers.find((p) => p.provider === "workspace_llm");
    expect(own?.requests.today).toBe(2);
    expect(own?.usd.today).toBeCloseTo((2 * CALL_MICROS) / 1e6, 9);
    expect(status.budgets.find((b) => b.provider === "workspace_llm")?.used).toBeCloseTo(
      (2 * CALL_MICROS) / 1e6,
      9,
    );
    expect(status.providers.find((p) => p.provider === "llm")?.requests.today ?? 0).toBe(0);
  });

  it("refuses a call its reservation would take past the workspace's budget before anything is sent", async () => {
    const { a } = await tenants();
    await storeOwnModel(a);
    // The reservation (a token per prompt character plus a full reply at $5 a million) is far above $0.001.
    await setBudget({
      ctx: a,
      input: { provider: "workspace_llm", metric: "usd", period: "month", limit: 0.001 },
    });
    const alone = withEnv(a, { SEARCHMUX_LLM_MODEL: "" });
    const refused = await extract({ ctx: alone, input: { urls: [page(1)], schema: SCHEMA } });
    expect(refused.results[0]).toMatchObject({ url: page(1), error: { code: "budget_exhausted" } });
    expect(modelRequests()).toHaveLength(0);

    // With the operator's model there too, the page falls through to it: the workspace's model stays skipped.
    const result = await extract({ ctx: a, input: { urls: [page(1)], schema: SCHEMA, no_cache: true } });
    expect(result.results[0]).toMatchObject({ provider: "llm", data: { design: 1 } });
    expect(byWorkspaceModel()).toHaveLength(0);
    await platform.traces.flush();
    const trace = await getTrace({ ctx: a, input: { id: result.trace_id } });
    expect(trace.spans.filter((s) => s.kind === "llm").map((s) => `${s.provider}:${s.outcome}`)).toEqual([
      "workspace_llm:skipped_budget",
      "llm:ok",
    ]);
  });

  it.each([
    ["a loopback address", "http://127.0.0.1/v1", /^refused: 127\.0\.0\.1 is a loopback address$/],
    [
      "the cloud metadata address",
      "http://169.254.169.254/v1",
      /^refused: 169\.254\.169\.254 is a cloud metadata address$/,
    ],
    ["a private address", "https://10.0.0.7/v1", /^refused: 10\.0\.0\.7 is a private address$/],
    ["an internal host name", "https://metadata.google.internal/v1", /internal or cloud metadata host name/],
    ["another port", "https://models.example.com:8443/v1", /port 8443 is not allowed/],
  ])("refuses %s as base_url when saved, naming the rule on the field", async (_what, baseUrl, rule) => {
    const { a } = await tenants();
    const error = await refusal(
      storeOwnModel(withEnv(a, { SEARCHMUX_FETCH_ALLOWLIST: "" }), { base_url: baseUrl }),
    );
    expect(error.details).toEqual([{ path: "base_url", message: expect.stringMatching(rule) }]);
    expect(error.message).toMatch(/^base_url: refused: /);
    expect(error.message).not.toContain(WORKSPACE_KEY);
    expect(await listKeys({ ctx: a })).toEqual([]);
    expect(modelRequests()).toHaveLength(0);
  });

  it("refuses a name that resolves to a private address, and plain http in production, unless the host is allowlisted", async () => {
    const { a } = await tenants();
    const strict = withEnv(a, { SEARCHMUX_FETCH_ALLOWLIST: "" });
    dnsAnswers.set("models.intranet-corp.example", "10.20.30.40");
    const resolved = await refusal(
      storeOwnModel(strict, { base_url: "https://models.intranet-corp.example/v1" }),
    );
    expect(resolved.details[0]?.message).toBe(
      "refused: models.intranet-corp.example resolves to a private address",
    );

    dnsAnswers.set("api.public-models.example", "93.184.215.14");
    const production = withEnv(strict, { NODE_ENV: "production" });
    const http = await refusal(
      storeOwnModel(production, { base_url: "http://api.public-models.example/v1" }),
    );
    expect(http.details[0]?.message).toBe("refused: api.public-models.example: only https is allowed");
    // The operator's allowlist exempts a host from the address rules; from the https rule only a loopback
    // address (a model server on this machine), never an intranet name whose network the key would cross.
    const allowlisted = withEnv(production, {
      SEARCHMUX_FETCH_ALLOWLIST: "127.0.0.1,models.intranet-corp.example",
    });
    await expect(storeOwnModel(allowlisted)).resolves.toMatchObject({ provider: "workspace_llm" });
    const clearText = await refusal(
      storeOwnModel(allowlisted, { base_url: "http://models.intranet-corp.example/v1" }),
    );
    expect(clearText.details[0]?.message).toBe(
      "refused: models.intranet-corp.example: only https is allowed",
    );
  });

  it("checks the base URL again at every call: a name rebound to the metadata address is refused, nothing is sent", async () => {
    const { a } = await tenants();
    dnsAnswers.set("rebinding-models.example", "93.184.215.14");
    await storeOwnModel(a, { base_url: "https://rebinding-models.example/v1" });
    dnsAnswers.set("rebinding-models.example", "169.254.169.254");
    const alone = withEnv(a, { SEARCHMUX_LLM_MODEL: "" });
    const rebound = await extract({ ctx: alone, input: { urls: [page(1)], schema: SCHEMA } });
    expect(rebound.results[0]).toMatchObject({
      error: {
        code: "blocked",
        message: "workspace_llm: rebinding-models.example resolves to a cloud metadata address",
      },
    });
    const tested = await testKey({ ctx: a, input: { provider: "workspace_llm" } });
    expect(tested).toMatchObject({ status: "unknown", reason: "blocked" });
    expect(modelRequests()).toHaveLength(0);
  });

  it("answers the endpoint's failures by status alone: never its body, nor the key; a refused key is marked invalid", async () => {
    const { a } = await tenants();
    await storeOwnModel(a);
    const alone = withEnv(a, { SEARCHMUX_LLM_MODEL: "" });
    fake.setScenario(SNIPPET_MODEL, { status: 500 });
    const failed = await extract({ ctx: alone, input: { urls: [page(1)], schema: SCHEMA } });
    const host = new URL(fake.url).host;
    expect(failed.results[0]).toMatchObject({
      error: { code: "http_error", message: `workspace_llm: ${host} returned HTTP 500` },
    });

    fake.setScenario(SNIPPET_MODEL, { status: 401 });
    const refused = await extract({ ctx: alone, input: { urls: [page(2)], schema: SCHEMA } });
    expect(refused.results[0]).toMatchObject({
      error: { code: "bad_key", message: `workspace_llm: ${host} rejected the API key (HTTP 401)` },
    });
    await platform.pending.settled();
    expect((await listKeys({ ctx: a }))[0]?.status).toBe("invalid");
    const everything = JSON.stringify([failed, refused]) + logLines.join("");
    expect(everything).not.toContain("fake snippet-model status");
    expect(everything).not.toContain(WORKSPACE_KEY);
  });

  it("tests the key with the free list of models: works, refused, or the stored model not among them", async () => {
    const { a } = await tenants();
    await storeOwnModel(a);
    expect(await testKey({ ctx: a, input: { provider: "workspace_llm" } })).toMatchObject({
      status: "ok",
      spent: { requests: 1, usd: 0 },
    });
    const [listed] = fake.requests(SNIPPET_MODEL).filter((r) => r.path === "/models");
    expect(listed?.headers.authorization).toBe(`Bearer ${WORKSPACE_KEY}`);

    fake.setScenario(SNIPPET_MODEL, { payload: { models: ["another-model"] } });
    expect(await testKey({ ctx: a, input: { provider: "workspace_llm" } })).toMatchObject({
      status: "unknown",
      reason: "unknown_model",
      detail: `${new URL(fake.url).host} does not list the model '${WORKSPACE_MODEL}'`,
    });
    fake.setScenario(SNIPPET_MODEL, { status: 401 });
    expect(await testKey({ ctx: a, input: { provider: "workspace_llm" } })).toMatchObject({
      status: "invalid",
      reason: "bad_key",
    });
  });

  it("lists the host, model and price, never the key; a stored row pointed elsewhere no longer opens", async () => {
    const { a } = await tenants();
    await storeOwnModel(a, { base_url: `${fake.baseUrlFor(SNIPPET_MODEL)}/` });
    const [stored] = await listKeys({ ctx: a });
    expect(stored).toMatchObject({
      provider: "workspace_llm",
      last4: "7f3e",
      endpoint: { host: new URL(fake.url).host, model: WORKSPACE_MODEL, price_per_mtok: PRICE },
    });
    expect(JSON.stringify(stored)).not.toContain(WORKSPACE_KEY);

    // A database write (without the key-encryption key) sends the key to another address: it no longer opens.
    await t.db.withSystem((tx) =>
      tx
        .update(providerKeys)
        .set({
          settings: {
            base_url: `${fake.baseUrlFor(SNIPPET_MODEL)}/elsewhere`,
            model: WORKSPACE_MODEL,
            price_per_mtok: PRICE,
          },
        })
        .where(eq(providerKeys.tenantId, a.tenantId)),
    );
    forgetTenantKeys(a.tenantId);
    const result = await extract({ ctx: a, input: { urls: [page(3)], schema: SCHEMA } });
    expect(result.results[0]).toMatchObject({ provider: "llm" });
    expect(byWorkspaceModel()).toHaveLength(0);
  });

  it("is never another workspace's: B's calls use the operator's model, or none", async () => {
    const { a, b } = await tenants();
    await storeOwnModel(a);
    const theirs = await extract({ ctx: b, input: { urls: [page(1)], schema: SCHEMA } });
    expect(theirs.results[0]).toMatchObject({ provider: "llm" });
    expect(byWorkspaceModel()).toHaveLength(0);
    expect(modelRequests().map((r) => r.headers.authorization)).toEqual([`Bearer ${OPERATOR_KEY}`]);
    await expect(
      extract({ ctx: withEnv(b, { SEARCHMUX_LLM_MODEL: "" }), input: { urls: [page(1)], schema: SCHEMA } }),
    ).rejects.toMatchObject({ code: "no_provider_configured" });
    await expect(
      extract({ ctx: b, input: { urls: [page(1)], schema: SCHEMA, providers: ["workspace_llm"] } }),
    ).rejects.toMatchObject({ code: "invalid_input" });
    expect(await listKeys({ ctx: b })).toEqual([]);
    const status = await providerStatus({ ctx: b });
    expect(status.providers.find((p) => p.provider === "workspace_llm")).toMatchObject({
      available: false,
      key_source: "missing",
    });
    expect(modelRequests().some((r) => r.headers.authorization === `Bearer ${WORKSPACE_KEY}`)).toBe(false);
  });

  it("takes its settings only with workspace_llm, each required there, each checked", async () => {
    const { a } = await tenants();
    const missing = await refusal(
      setKey({ ctx: a, input: { provider: "workspace_llm", key: WORKSPACE_KEY, model: WORKSPACE_MODEL } }),
    );
    expect(missing.details.map((d) => d.path)).toEqual(["base_url", "price_per_mtok"]);
    expect(missing.message).toBe(
      "base_url: is required for workspace_llm; price_per_mtok: is required for workspace_llm",
    );
    const stray = await refusal(
      setKey({ ctx: a, input: { provider: "tavily", key: "tvly-some-key-1234", model: WORKSPACE_MODEL } }),
    );
    expect(stray.details).toEqual([{ path: "model", message: expect.stringMatching(/^is only for /) }]);
    const badPrice = await refusal(storeOwnModel(a, { price_per_mtok: { input: -1, output: 5_000 } }));
    expect(badPrice.details.map((d) => d.path)).toEqual(["price_per_mtok.input", "price_per_mtok.output"]);
    const credentials = await refusal(
      storeOwnModel(a, { base_url: "https://user:pass@models.example.com/v1" }),
    );
    expect(credentials.details[0]).toMatchObject({
      path: "base_url",
      message: expect.stringMatching(/credentials/),
    });
    expect(await listKeys({ ctx: a })).toEqual([]);
  });
});
