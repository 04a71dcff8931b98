import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reservations } from "@/lib/db/schema";
import { answer } from "@/lib/services/answer/answer";
import { estimateAnswer } from "@/lib/services/answer/estimate-answer";
import { budgetStatus } from "@/lib/services/budgets/budget-status";
import { setKey } from "@/lib/services/keys/set-key";
import { testKey } from "@/lib/services/keys/test-key";
import { paperSearch } from "@/lib/services/papers/paper-search";
import { createTenant } from "@/lib/services/tenants/create-tenant";
import { ANSWER_PREFIX, ANSWER_WIRES, DEFAULT_ANSWER } from "@/tests/fakes/answer-wires";
import { PAPER_PREFIX, PAPER_WIRES } from "@/tests/fakes/paper-wires";
import { startFakeProviders } from "@/tests/fakes/provider-server";
import { primaryTarget, type TestDatabase } from "@/tests/support/database";
import { systemCtx, tenantCtx, testPlatform } from "@/tests/support/platform";
import { fakeBaseUrls, serviceSuite } from "@/tests/support/service-suite";

describe.each(primaryTarget())("answer and paper_search for a tenant on $name", (target) => {
  const s = serviceSuite(target, {
    wires: { ...ANSWER_WIRES, ...PAPER_WIRES },
    env: (fake) => ({
      PERPLEXITY_BASE_URL: fake.baseUrlFor(ANSWER_PREFIX.perplexity),
      GEMINI_BASE_URL: fake.baseUrlFor(ANSWER_PREFIX.gemini),
      ARXIV_BASE_URL: fake.baseUrlFor(PAPER_PREFIX.arxiv),
      SEMANTIC_SCHOLAR_BASE_URL: fake.baseUrlFor(PAPER_PREFIX.semantic_scholar),
      OPENALEX_BASE_URL: fake.baseUrlFor(PAPER_PREFIX.openalex),
      PUBMED_BASE_URL: fake.url,
      // Grounding searches must not leave the machine: the keyless search providers point at the fake too.
      ...fakeBaseUrls(fake, ["duckduckgo", "wikipedia"]),
    }),
  });
  beforeAll(async () => {
    await setKey({ ctx: s.a, input: { provider: "perplexity", key: "pplx-tenant-a-key" } });
  });

  it("answers with the tenant's key, citations normalised, charged once and cached", async () => {
    const first = await answer({
      ctx: s.a,
      input: { query: "Which async runtime?", providers: ["perplexity"] },
    });
    expect(first.cache_hit).toBe(false);
    expect(first.answers).toEqual([
      expect.objectContaining({
        provider: "perplexity",
        citations: expect.arrayContaining([{ title: expect.any(String), url: "https://tokio.rs/" }]),
      }),
    ]);
    expect(s.fake.requests(ANSWER_PREFIX.perplexity)[0]?.headers.authorization).toBe(
      "Bearer pplx-tenant-a-key",
    );
    const again = await answer({
      ctx: s.a,
      input: { query: "Which async runtime?", providers: ["perplexity"] },
    });
    expect(again.cache_hit).toBe(true);
    expect(s.fake.requests(ANSWER_PREFIX.perplexity)).toHaveLength(1);
    const usage = await budgetStatus({ ctx: s.a });
    expect(usage.providers.find((p) => p.provider === "perplexity")?.requests.lifetime).toBe(1);
  });

  it("charges Perplexity its request fee plus the tokens its answer reports, the estimate the reservation", async () => {
    const spentToday = async () =>
      (await budgetStatus({ ctx: s.a })).providers.find((p) => p.provider === "perplexity")?.usd.today ?? 0;
    const input = { query: "How does Tokio schedule tasks?", providers: ["perplexity"] };
    try {
      s.fake.setScenario(ANSWER_PREFIX.perplexity, {
        payload: { ...DEFAULT_ANSWER, usage: { input: 1000, output: 500 } },
      });
      const before = await spentToday();
      await answer({ ctx: s.a, input });
      // $0.005 a request + 1,500 tokens at $1 per million.
      expect((await spentToday()) - before).toBeCloseTo(0.005 + 0.0015, 9);

      s.fake.setScenario(ANSWER_PREFIX.perplexity, { payload: { ...DEFAULT_ANSWER, usage: null } });
      const estimated = await estimateAnswer({ ctx: s.a, input: { ...input, query: "Is Tokio fair?" } });
      const unreported = await spentToday();
      await answer({ ctx: s.a, input: { ...input, query: "Is Tokio fair?" } });
      // Without usage the reservation is kept: the estimate's figure.
      expect((await spentToday()) - unreported).toBeCloseTo(estimated.maxCostMicros / 1e6, 9);
    } finally {
      s.fake.resetScenarios();
    }
  });

  it("refuses a provider the tenant has no key for, and a token without the answer scope", async () => {
    await expect(answer({ ctx: s.b, input: { query: "q", providers: ["perplexity"] } })).rejects.toThrow(
      /not available without a key: perplexity/,
    );
    await expect(
      answer({ ctx: { ...s.a, scopes: ["search"] }, input: { query: "q" } }),
    ).rejects.toMatchObject({
      code: "forbidden",
    });
    await expect(answer({ ctx: s.a, input: { query: "q", bogus: 1 } as never })).rejects.toMatchObject({
      code: "invalid_input",
    });
  });

  it("refuses grounded answers to a token without the search scope, before any call or charge", async () => {
    const ctx = tenantCtx(
      s.platform,
      (await createTenant({ ctx: systemCtx(s.platform), input: { name: "C" } })).id,
    );
    await setKey({ ctx, input: { provider: "gemini", key: "gemini-key-123456" } });
    await setKey({ ctx, input: { provider: "perplexity", key: "pplx-tenant-c-key" } });
    const answerOnly = { ...ctx, scopes: ["answer"] as const };

    for (const providers of [undefined, ["gemini"]]) {
      await expect(answer({ ctx: answerOnly, input: { query: "q", providers } })).rejects.toMatchObject({
        code: "forbidden",
        message: expect.stringMatching(/grounded providers \(gemini\).*'search' scope/),
      });
    }
    expect(s.fake.requests(ANSWER_PREFIX.gemini)).toHaveLength(0);
    expect(await ctx.db.withTenant(ctx.tenantId, (tx) => tx.select().from(reservations))).toEqual([]);
    // An ungrounded provider searches nothing of ours: the answer scope is enough.
    const ungrounded = await answer({ ctx: answerOnly, input: { query: "q", providers: ["perplexity"] } });
    expect(ungrounded.answers.map((a) => a.provider)).toEqual(["perplexity"]);
  });

  it("searches papers with no keys at all, merged across sources, and reports a failing source", async () => {
    s.fake.setScenario(PAPER_PREFIX.openalex, { status: 503 });
    const result = await paperSearch({
      ctx: s.b,
      input: { query: "attention", providers: ["arxiv", "semantic_scholar", "openalex"] },
    });
    expect(result.results.length).toBeGreaterThan(0);
    expect(result.results[0]?.sources.length).toBeGreaterThan(0);
    expect(result.providers_failed).toEqual([
      expect.objectContaining({ provider: "openalex", reason: "http_error" }),
    ]);
    expect(result.partial).toBe(true);
    const usage = await budgetStatus({ ctx: s.b });
    expect(usage.providers.find((p) => p.provider === "arxiv")?.requests.today).toBe(1);
    await expect(
      paperSearch({ ctx: s.b, input: { query: "x", year_from: 2020, year_to: 2010 } }),
    ).rejects.toMatchObject({
      code: "invalid_input",
    });
  });
});

describe.each(primaryTarget())("testing keys of non-search providers on $name", (target) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await target.create();
  });
  afterAll(async () => t?.cleanup());

  it("tests an answer provider's key with one short question", async () => {
    const fake = await startFakeProviders(ANSWER_WIRES);
    try {
      const platform = testPlatform(t.db, {
        env: { GEMINI_BASE_URL: fake.baseUrlFor(ANSWER_PREFIX.gemini) },
      });
      const ctx = tenantCtx(
        platform,
        (await createTenant({ ctx: systemCtx(platform), input: { name: "g" } })).id,
      );
      await setKey({ ctx, input: { provider: "gemini", key: "gemini-key-123456" } });
      fake.setScenario(ANSWER_PREFIX.gemini, { expectedApiKey: "gemini-key-123456" });
      expect(await testKey({ ctx, input: { provider: "gemini" } })).toMatchObject({ status: "ok" });
      fake.setScenario(ANSWER_PREFIX.gemini, { expectedApiKey: "another-key" });
      expect(await testKey({ ctx, input: { provider: "gemini" } })).toMatchObject({
        status: "invalid",
        reason: "bad_key",
      });
    } finally {
      await fake.close();
    }
  });
});
