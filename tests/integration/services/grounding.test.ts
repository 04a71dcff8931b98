import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Platform, TenantContext } from "@/lib/pipeline/context";
import { budgetStatus } from "@/lib/services/budgets/budget-status";
import { setBudget } from "@/lib/services/budgets/set-budget";
import { setKey } from "@/lib/services/keys/set-key";
import { webSearch } from "@/lib/services/search/web-search";
import { createTenant } from "@/lib/services/tenants/create-tenant";
import { updateTenant } from "@/lib/services/tenants/update-tenant";
import { getTrace } from "@/lib/services/traces/get-trace";
import { FETCH_WIRES, fetchWireId } from "@/tests/fakes/fetch-wires";
import { type FakeProviders, type FakeResult, startFakeProviders } from "@/tests/fakes/provider-server";
import { SNIPPET_MODEL, SNIPPET_MODEL_WIRES, userMessage } from "@/tests/fakes/snippet-model-wire";
import { primaryTarget, type TestDatabase } from "@/tests/support/database";
import { generous } from "@/tests/support/generous";
import { systemCtx, tenantCtx, testPlatform } from "@/tests/support/platform";

const article = (title: string, marker: string) =>
  `<!DOCTYPE html><html><head><title>${title}</title></head><body><article><h1>${title}</h1>${`<p>${marker} ripgrep searches directories recursively for a regex pattern and respects gitignore rules by default.</p>`.repeat(4)}</article></body></html>`;
const PAYWALL = `<!DOCTYPE html><html><head><title>Premium story</title></head><body><article><h1>Premium story</h1><p>The opening paragraph of a story about ripgrep.</p><p>Subscribe now to continue reading.</p></article></body></html>`;

const PAGES: Record<string, string> = {
  "/a": article("Page A", "ALPHA"),
  "/b": article("Page B", "BRAVO"),
  "/c": article("Page C", "CHARLIE"),
  "/empty": article("Page D", "NOTHING-HERE"),
  "/paywall": PAYWALL,
};

describe.each(primaryTarget())("grounded snippets on $name", (target) => {
  let t: TestDatabase;
  let fake: FakeProviders;
  let site: http.Server;
  let origin: string;
  let platform: Platform;
  let env: Record<string, string>;
  /** Resolves once a client hung up on /slow (it never answers, so a client ends it only by giving up). */
  let slowDropped: Promise<void> = Promise.resolve();
  let onSlowDropped = () => {};

  const result = (path: string): FakeResult => ({
    title: `Result ${path}`,
    url: `${origin}${path}`,
    snippet: `Fused snippet for ${path}.`,
  });
  const searchFinds = (...paths: string[]) => fake.setScenario("duckduckgo", { results: paths.map(result) });
  const newTenant = async (name = "grounding") =>
    tenantCtx(platform, (await createTenant({ ctx: systemCtx(platform), input: { name } })).id);
  const grounded = (ctx: TenantContext, extra: Record<string, unknown> = {}) =>
    webSearch({
      ctx,
      input: { query: "ripgrep speed", providers: ["duckduckgo"], grounded_snippets: true, ...extra },
    });
  const modelReads = () => fake.requests(SNIPPET_MODEL).map(userMessage);

  beforeAll(async () => {
    t = await target.create();
    fake = await startFakeProviders({ ...FETCH_WIRES, ...SNIPPET_MODEL_WIRES });
    site = http.createServer((req, res) => {
      if (req.url === "/slow") {
        res.on("close", () => onSlowDropped());
        return; // never answers
      }
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(PAGES[req.url ?? ""] ?? PAGES["/a"]);
    });
    await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    env = {
      SEARCHMUX_FETCH_ALLOWLIST: "127.0.0.1",
      DUCKDUCKGO_BASE_URL: fake.baseUrlFor("duckduckgo"),
      JINA_READER_BASE_URL: fake.baseUrlFor(fetchWireId("jina")),
      SEARCHMUX_LLM_BASE_URL: fake.baseUrlFor(SNIPPET_MODEL),
      SEARCHMUX_LLM_MODEL: "snippet-writer",
      SEARCHMUX_LLM_API_KEY: "operator-llm-key-1234",
    };
    platform = testPlatform(t.db, { env });
  });
  afterAll(async () => {
    site?.closeAllConnections();
    site?.close();
    await fake?.close();
    await t?.cleanup();
  });
  beforeEach(() => {
    fake.resetScenarios();
    fake.clearRequests();
  });

  it("has the model describe the top pages, and traces and budgets each call", async () => {
    const ctx = await newTenant();
    searchFinds("/a", "/b", "/c");
    const search = await grounded(ctx, { grounded_results: 2 });

    expect(search.results.map((r) => [r.url, r.snippet_source])).toEqual([
      [`${origin}/a`, "grounded"],
      [`${origin}/b`, "grounded"],
      [`${origin}/c`, "aggregated"],
    ]);
    expect(search.results[0]?.snippet).toMatch(/^Grounded: .*ALPHA ripgrep searches/);
    expect(search.results[1]?.snippet).toMatch(/BRAVO/);
    expect(search.results[2]?.snippet).toBe("Fused snippet for /c.");

    const [request] = fake.requests(SNIPPET_MODEL);
    expect(request?.headers.authorization).toBe("Bearer operator-llm-key-1234");
    expect(request?.body).toMatchObject({
      model: "snippet-writer",
      messages: [
        { role: "system", content: expect.stringContaining("NO_CONTENT") },
        { role: "user", content: expect.stringContaining("Search query: ripgrep speed") },
      ],
    });
    expect(modelReads()).toHaveLength(2);

    await platform.traces.flush();
    const trace = await getTrace({ ctx, input: { id: search.trace_id } });
    const spans = trace.spans.map((s) => `${s.kind}:${s.provider}:${s.outcome}`).sort();
    expect(spans).toEqual([
      "fetch:direct:ok",
      "fetch:direct:ok",
      "llm:llm:ok",
      "llm:llm:ok",
      "search:duckduckgo:ok",
    ]);
    expect(trace.summary).toMatchObject({
      grounded: [
        { url: `${origin}/a`, snippet_source: "grounded", fetched_by: "direct", attempts: 1 },
        { url: `${origin}/b`, snippet_source: "grounded", fetched_by: "direct", attempts: 1 },
      ],
    });
    const usage = await budgetStatus({ ctx });
    expect(usage.providers.find((p) => p.provider === "llm")?.requests.lifetime).toBe(2);
  });

  it("retries a paywalled page through the next fetch step before asking the model", async () => {
    const ctx = await newTenant();
    searchFinds("/paywall");
    const search = await grounded(ctx);

    expect(search.results[0]).toMatchObject({ snippet_source: "grounded" });
    expect(search.results[0]?.snippet).toMatch(/Content fetched through a provider/);
    expect(fake.requests(fetchWireId("jina"))).toHaveLength(1);
    expect(modelReads()).toEqual([expect.stringContaining("Content fetched through a provider")]);
    await platform.traces.flush();
    const trace = await getTrace({ ctx, input: { id: search.trace_id } });
    expect(trace.summary).toMatchObject({
      grounded: [{ snippet_source: "grounded", fetched_by: "jina", attempts: 2 }],
    });
    expect(trace.spans.filter((s) => s.kind === "fetch")).toEqual([
      expect.objectContaining({
        provider: "direct",
        outcome: "error",
        error: expect.stringMatching(/paywall/),
      }),
      expect.objectContaining({ provider: "jina", outcome: "ok" }),
    ]);
  });

  it("keeps the fused snippet when every try finds a paywall, without a model call", async () => {
    const ctx = await newTenant();
    searchFinds("/paywall", "/a");
    fake.setScenario(fetchWireId("jina"), {
      payload: { title: "Premium story", markdown: "# Premium story\n\nSubscribe now to continue reading." },
    });
    const search = await grounded(ctx);

    expect(search.results[0]).toMatchObject({
      snippet_source: "fallback",
      snippet: "Fused snippet for /paywall.",
    });
    expect(search.results[1]?.snippet_source).toBe("grounded");
    expect(modelReads()).toEqual([expect.stringContaining("ALPHA")]);
    await platform.traces.flush();
    const trace = await getTrace({ ctx, input: { id: search.trace_id } });
    expect(trace.summary).toMatchObject({
      grounded: [
        { url: `${origin}/paywall`, snippet_source: "fallback", attempts: 2, reason: "paywall" },
        { url: `${origin}/a`, snippet_source: "grounded" },
      ],
    });
    // A paywall is not a passing fault: the result is cached like any complete search.
    expect((await grounded(ctx)).cache_hit).toBe(true);
  });

  it("treats NO_CONTENT and its paraphrases as unusable: one retry, then the fused snippet", async () => {
    const ctx = await newTenant();
    searchFinds("/empty", "/a");
    fake.setScenario(SNIPPET_MODEL, {
      payload: {
        rules: [
          { contains: "NOTHING-HERE", reply: "NO_CONTENT" },
          { contains: "ALPHA", reply: "The page appears to be a login screen; no article text is shown." },
        ],
      },
    });
    const retried = await grounded(ctx, { no_cache: true });
    expect(retried.results.map((r) => r.snippet_source)).toEqual(["grounded", "grounded"]);
    expect(retried.results.every((r) => r.snippet.includes("Content fetched through a provider"))).toBe(true);

    fake.setScenario(SNIPPET_MODEL, {
      payload: {
        rules: [
          { contains: "ripgrep", reply: "NO_CONTENT" },
          { contains: "provider", reply: "NO_CONTENT." },
        ],
      },
    });
    const fellBack = await grounded(ctx, { no_cache: true, grounded_results: 1 });
    expect(fellBack.results[0]).toMatchObject({
      snippet_source: "fallback",
      snippet: "Fused snippet for /empty.",
    });
    await platform.traces.flush();
    const trace = await getTrace({ ctx, input: { id: fellBack.trace_id } });
    expect(trace.summary).toMatchObject({ grounded: [{ attempts: 2, reason: "no_content" }] });
    expect(trace.spans.filter((s) => s.kind === "llm").map((s) => s.outcome)).toEqual(["empty", "empty"]);
  });

  it("gives each page its own deadline and returns on time; such a result is not cached", async () => {
    const ctx = await newTenant();
    searchFinds("/slow", "/a");
    slowDropped = new Promise((resolve) => {
      onSlowDropped = resolve;
    });
    const started = Date.now();
    const search = await grounded(ctx, { grounded_timeout_ms: 1_000 });
    // The page's deadline hung up on the page that never answers; the bound is generous (10× that deadline).
    await slowDropped;
    expect(Date.now() - started).toBeLessThan(generous(1_000));
    expect(search.results.map((r) => r.snippet_source)).toEqual(["fallback", "grounded"]);
    await platform.traces.flush();
    const trace = await getTrace({ ctx, input: { id: search.trace_id } });
    expect(trace.status).toBe("partial");
    expect(trace.summary).toMatchObject({
      grounded: [{ reason: "timeout" }, { snippet_source: "grounded" }],
    });
    expect((await grounded(ctx, { grounded_timeout_ms: 1_000 })).cache_hit).toBe(false);
  });

  it("caches grounded and aggregated results under different keys", async () => {
    const ctx = await newTenant();
    searchFinds("/a");
    const plain = { query: "cache keys", providers: ["duckduckgo"] };
    expect((await webSearch({ ctx, input: plain })).results[0]?.snippet_source).toBe("aggregated");
    const first = await webSearch({ ctx, input: { ...plain, grounded_snippets: true } });
    expect([first.cache_hit, first.results[0]?.snippet_source]).toEqual([false, "grounded"]);
    const again = await webSearch({ ctx, input: { ...plain, grounded_snippets: true } });
    expect([again.cache_hit, again.results[0]?.snippet]).toEqual([true, first.results[0]?.snippet]);
    expect(modelReads()).toHaveLength(1);
    const plainAgain = await webSearch({ ctx, input: plain });
    expect([plainAgain.cache_hit, plainAgain.results[0]?.snippet_source]).toEqual([true, "aggregated"]);
  });

  it("follows the tenant's default, and needs a configured model when a call asks for it", async () => {
    const ctx = await newTenant();
    searchFinds("/a");
    await updateTenant({ ctx, input: { groundedSnippets: true } });
    const input = { query: "tenant default", providers: ["duckduckgo"], no_cache: true };
    expect((await webSearch({ ctx, input })).results[0]?.snippet_source).toBe("grounded");
    expect(
      (await webSearch({ ctx, input: { ...input, grounded_snippets: false } })).results[0]?.snippet_source,
    ).toBe("aggregated");

    const noModel = { ...ctx, env: { ...env, SEARCHMUX_LLM_MODEL: "" } };
    expect((await webSearch({ ctx: noModel, input })).results[0]?.snippet_source).toBe("aggregated");
    await expect(
      webSearch({ ctx: noModel, input: { ...input, grounded_snippets: true } }),
    ).rejects.toMatchObject({ code: "no_provider_configured" });
  });

  it("charges model calls to the llm budget and uses the tenant's own llm key", async () => {
    const ctx = await newTenant();
    searchFinds("/a", "/b");
    await setBudget({ ctx, input: { provider: "llm", metric: "requests", period: "day", limit: 1 } });
    await setKey({ ctx, input: { provider: "llm", key: "tenant-llm-key-5678" } });
    const search = await grounded(ctx);
    expect(search.results.map((r) => r.snippet_source).sort()).toEqual(["fallback", "grounded"]);
    expect(fake.requests(SNIPPET_MODEL).map((r) => r.headers.authorization)).toEqual([
      "Bearer tenant-llm-key-5678",
    ]);
    await platform.traces.flush();
    const trace = await getTrace({ ctx, input: { id: search.trace_id } });
    expect(trace.summary).toMatchObject({
      grounded: expect.arrayContaining([expect.objectContaining({ reason: "llm_budget_exhausted" })]),
    });
    expect(
      trace.spans
        .filter((s) => s.kind === "llm")
        .map((s) => s.outcome)
        .sort(),
    ).toEqual(["ok", "skipped_budget"]);
  });
});
