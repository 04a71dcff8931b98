/**
 * Operator quotas (SEARCHMUX_OPERATOR_QUOTA_*, security #14 "Open sign-up draws on the operator's keys
 * without limit"): per workspace, the calls made with the operator's provider keys or model are counted
 * and refused past the quota, atomically with budgets; a tenant's own keys and keyless providers are not.
 */
import { randomUUID } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { usageCounters } from "@/lib/db/schema";
import { buildServer } from "@/lib/mcp/build-server";
import { revision2025 } from "@/lib/mcp/revision-2025";
import { admit, release, settle } from "@/lib/pipeline/budgets/admission";
import { OPERATOR_SCOPE } from "@/lib/pipeline/budgets/operator-quota";
import type { Env } from "@/lib/pipeline/capabilities";
import type { TenantContext } from "@/lib/pipeline/context";
import { keyId } from "@/lib/pipeline/rate-limit/provider-pause";
import { answer } from "@/lib/services/answer/answer";
import { budgetStatus } from "@/lib/services/budgets/budget-status";
import { setKey } from "@/lib/services/keys/set-key";
import { webSearch } from "@/lib/services/search/web-search";
import { createTenant } from "@/lib/services/tenants/create-tenant";
import { ANSWER_PREFIX, ANSWER_WIRES } from "@/tests/fakes/answer-wires";
import { type FakeProviders, startFakeProviders } from "@/tests/fakes/provider-server";
import { databaseTargets, type TestDatabase } from "@/tests/support/database";
import { systemCtx, tenantCtx, testPlatform } from "@/tests/support/platform";

const QUOTA_MESSAGE =
  /operator quota exhausted — the operator's keys: requests per day quota reached \(resets \d{4}-\d\d-\d\dT00:00:00\.000Z; calls with your own provider keys are not counted\)$/;

describe.each(databaseTargets())("operator quotas on $name", (target) => {
  let t: TestDatabase;
  let fake: FakeProviders;
  let providerEnv: Env;
  const mcpClients: Client[] = [];

  beforeAll(async () => {
    t = await target.create({ poolSize: 10 });
    fake = await startFakeProviders(ANSWER_WIRES);
    // Brave and Tavily on the operator's keys; DuckDuckGo and Wikipedia are keyless.
    providerEnv = {
      BRAVE_API_KEY: "operator-brave",
      TAVILY_API_KEY: "operator-tavily",
      BRAVE_BASE_URL: fake.baseUrlFor("brave"),
      TAVILY_BASE_URL: fake.baseUrlFor("tavily"),
      DUCKDUCKGO_BASE_URL: fake.baseUrlFor("duckduckgo"),
      WIKIPEDIA_BASE_URL: fake.baseUrlFor("wikipedia"),
    };
  });
  afterAll(async () => {
    await Promise.all(mcpClients.map((client) => client.close()));
    await fake?.close();
    await t?.cleanup();
  });
  beforeEach(() => {
    fake.resetScenarios();
    fake.clearRequests();
  });

  /** A new workspace on a platform with the provider fakes and `env` (the quotas). */
  async function workspace(env: Env, now?: () => Date): Promise<TenantContext> {
    const platform = testPlatform(t.db, { env: { ...providerEnv, ...env }, ...(now && { now }) });
    const tenant = await createTenant({ ctx: systemCtx(platform), input: { name: `q-${randomUUID()}` } });
    return tenantCtx(platform, tenant.id);
  }

  async function operatorCounter(ctx: TenantContext, metric: "requests" | "usd", periodKey: string) {
    await ctx.usage.flush();
    const rows = await ctx.db.withTenant(ctx.tenantId, (tx) => tx.select().from(usageCounters));
    return (
      rows.find((r) => r.provider === OPERATOR_SCOPE && r.metric === metric && r.periodKey === periodKey)
        ?.used ?? 0
    );
  }

  const today = () => `day:${new Date().toISOString().slice(0, 10)}`;
  const search = (ctx: TenantContext, providers: string[]) =>
    webSearch({ ctx, input: { query: `q ${randomUUID()}`, providers } });

  it("refuses the operator's key after the daily request quota; the tenant's own key and keyless providers are not counted", async () => {
    const ctx = await workspace({ SEARCHMUX_OPERATOR_QUOTA_REQUESTS_DAY: "2" });
    // Each call also asks keyless DuckDuckGo: were it counted, the second call would already be refused.
    for (let i = 0; i < 2; i++) {
      const ok = await search(ctx, ["brave", "duckduckgo"]);
      expect(ok.providers_failed).toEqual([]);
    }
    const third = await search(ctx, ["brave", "duckduckgo"]);
    expect(third.providers_failed).toEqual([
      expect.objectContaining({ provider: "brave", reason: "operator_quota_exhausted" }),
    ]);
    expect(third.providers_succeeded.map((p) => p.provider)).toEqual(["duckduckgo"]);

    // Every provider on the operator's keys refused by the same quota: one 402-class error, named once.
    const refused = search(ctx, ["brave", "tavily"]);
    await expect(refused).rejects.toMatchObject({ code: "budget_exhausted" });
    await expect(refused).rejects.toThrow(QUOTA_MESSAGE);
    expect(fake.requests("brave")).toHaveLength(2);
    expect(fake.requests("tavily")).toHaveLength(0);
    expect(await operatorCounter(ctx, "requests", today())).toBe(2);

    // The same provider with a key of the workspace's own is not counted.
    await setKey({ ctx, input: { provider: "brave", key: "tenant-brave-key" } });
    for (let i = 0; i < 3; i++) expect((await search(ctx, ["brave"])).providers_failed).toEqual([]);
    expect(fake.requests("brave").at(-1)?.headers["x-subscription-token"]).toBe("tenant-brave-key");
    expect(await operatorCounter(ctx, "requests", today())).toBe(2);
  });

  it("holds a USD quota in dollars", async () => {
    // Brave costs $0.005 a call: two fit in $0.012, a third does not.
    const ctx = await workspace({ SEARCHMUX_OPERATOR_QUOTA_USD_DAY: "0.012" });
    await setKey({ ctx, input: { provider: "tavily", key: "tenant-tavily-key" } });
    await search(ctx, ["brave", "tavily"]);
    await search(ctx, ["brave", "tavily"]);
    const third = await search(ctx, ["brave", "tavily"]);
    expect(third.providers_failed).toEqual([
      expect.objectContaining({ provider: "brave", reason: "operator_quota_exhausted" }),
    ]);
    expect(third.providers_succeeded.map((p) => p.provider)).toEqual(["tavily"]);
    await expect(search(ctx, ["brave"])).rejects.toThrow(/usd per day quota reached/);
    expect(await operatorCounter(ctx, "usd", today())).toBe(10_000); // micro-dollars: $0.01

    const [quota] = (await budgetStatus({ ctx })).operator_quotas;
    expect(quota).toMatchObject({ metric: "usd", period: "day", limit: 0.012, used: 0.01 });
    expect(quota?.remaining).toBeCloseTo(0.002, 9);
  });

  it("admits exactly the quota out of 20 concurrent calls, and a replayed key once", async () => {
    const ctx = await workspace({ SEARCHMUX_OPERATOR_QUOTA_REQUESTS_DAY: "5" });
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        admit(ctx, {
          provider: "brave",
          costMicros: 5000,
          idempotencyKey: randomUUID(),
          drawsOnOperator: true,
        }),
      ),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(5);
    expect(results.find((r) => !r.ok)).toMatchObject({
      ok: false,
      exhausted: [
        {
          kind: "operator_quota",
          budgetId: null,
          provider: "*",
          metric: "requests",
          period: "day",
          limit: 5,
        },
      ],
    });
    expect(await operatorCounter(ctx, "requests", today())).toBe(5);

    const other = await workspace({ SEARCHMUX_OPERATOR_QUOTA_REQUESTS_DAY: "5" });
    const key = randomUUID();
    const replays = await Promise.all(
      Array.from({ length: 10 }, () =>
        admit(other, { provider: "brave", costMicros: 0, idempotencyKey: key, drawsOnOperator: true }),
      ),
    );
    expect(replays.every((r) => r.ok)).toBe(true);
    expect(await operatorCounter(other, "requests", today())).toBe(1);
  });

  it("gives the quota back when a call is refunded", async () => {
    const ctx = await workspace({ SEARCHMUX_OPERATOR_QUOTA_REQUESTS_DAY: "1" });
    const released = await admit(ctx, {
      provider: "brave",
      costMicros: 5000,
      idempotencyKey: randomUUID(),
      drawsOnOperator: true,
    });
    if (!released.ok) throw new Error("not admitted");
    await release(ctx, released.reservationId);
    expect(await operatorCounter(ctx, "requests", today())).toBe(0);

    // Calls the provider does not bill (a refused key, a 429) are refunded: the quota stays free.
    fake.setScenario("brave", { status: 401 });
    await expect(search(ctx, ["brave"])).rejects.toMatchObject({ code: "all_providers_failed" });
    fake.setScenario("brave", { status: 429, retryAfter: "30" });
    // Nothing failed that waiting does not fix: 429 with the provider's wait, not 502.
    await expect(search(ctx, ["brave"])).rejects.toMatchObject({
      code: "rate_limited",
      retryAfterSeconds: 30,
    });
    fake.resetScenarios();
    // The 429 paused the operator's key for 30 s: a call meanwhile skips it, uncharged too.
    await expect(search(ctx, ["brave"])).rejects.toThrow(/brave: rate_limited/);
    await ctx.kv.del(`smx:pause:${keyId("brave", "operator-brave")}`); // as if the 30 s had passed
    expect((await search(ctx, ["brave"])).providers_failed).toEqual([]);
    await expect(search(ctx, ["brave"])).rejects.toThrow(QUOTA_MESSAGE);
    expect(await operatorCounter(ctx, "requests", today())).toBe(1);
  });

  it("counts the operator's model even with a key the workspace stored for it", async () => {
    const ctx = await workspace({
      SEARCHMUX_OPERATOR_QUOTA_REQUESTS_DAY: "1",
      SEARCHMUX_LLM_BASE_URL: fake.baseUrlFor(ANSWER_PREFIX.llm),
      SEARCHMUX_LLM_MODEL: "operator-model",
      // Grounding searches keyless providers only, which the quota does not count.
      BRAVE_API_KEY: "",
      TAVILY_API_KEY: "",
    });
    // The operator's model server needs no key: the one stored here is sent and ignored.
    await setKey({ ctx, input: { provider: "llm", key: "anything-at-all" } });
    const first = await answer({ ctx, input: { query: "what is tokio?", providers: ["llm"] } });
    expect(first.answers.map((a) => a.provider)).toEqual(["llm"]);
    await expect(answer({ ctx, input: { query: "what is rayon?", providers: ["llm"] } })).rejects.toThrow(
      QUOTA_MESSAGE,
    );
    expect(fake.requests(ANSWER_PREFIX.llm)).toHaveLength(1);
  });

  it("budget_status lists each quota with used, remaining and when it resets", async () => {
    const now = new Date("2026-03-15T10:00:00Z");
    const ctx = await workspace(
      {
        SEARCHMUX_OPERATOR_QUOTA_REQUESTS_DAY: "10",
        SEARCHMUX_OPERATOR_QUOTA_REQUESTS_MONTH: "100",
        SEARCHMUX_OPERATOR_QUOTA_USD_DAY: "2",
        SEARCHMUX_OPERATOR_QUOTA_USD_MONTH: "20",
      },
      () => now,
    );
    for (let i = 0; i < 3; i++) {
      const admitted = await admit(ctx, {
        provider: "brave",
        costMicros: 5000,
        idempotencyKey: randomUUID(),
        drawsOnOperator: true,
      });
      if (!admitted.ok) throw new Error("not admitted");
      await settle(ctx, admitted.reservationId);
    }
    // A call with the workspace's own key is in its provider usage, not in the quotas.
    await admit(ctx, { provider: "brave", costMicros: 5000, idempotencyKey: randomUUID() });

    const status = await budgetStatus({ ctx });
    expect(status.operator_quotas).toEqual([
      {
        metric: "requests",
        period: "day",
        limit: 10,
        used: 3,
        remaining: 7,
        resets_at: "2026-03-16T00:00:00.000Z",
      },
      {
        metric: "requests",
        period: "month",
        limit: 100,
        used: 3,
        remaining: 97,
        resets_at: "2026-04-01T00:00:00.000Z",
      },
      {
        metric: "usd",
        period: "day",
        limit: 2,
        used: 0.015,
        remaining: 1.985,
        resets_at: "2026-03-16T00:00:00.000Z",
      },
      {
        metric: "usd",
        period: "month",
        limit: 20,
        used: 0.015,
        remaining: 19.985,
        resets_at: "2026-04-01T00:00:00.000Z",
      },
    ]);
    expect(status.providers.map((p) => p.provider)).toEqual(["brave"]); // never the @operator counters
  });

  it("applies the defaults only with open sign-up, and none when set to unlimited", async () => {
    const quotas = async (env: Env) => (await budgetStatus({ ctx: await workspace(env) })).operator_quotas;
    const summary = (list: Awaited<ReturnType<typeof quotas>>) =>
      list.map((q) => `${q.metric}/${q.period}=${q.limit}`);

    expect(await quotas({})).toEqual([]);
    // Without both halves of a sign-in provider, sign-up is not open.
    expect(await quotas({ GITHUB_ID: "gh-id" })).toEqual([]);
    const defaults = ["requests/day=1000", "requests/month=10000", "usd/day=2", "usd/month=20"];
    expect(summary(await quotas({ GITHUB_ID: "gh-id", GITHUB_SECRET: "gh-secret" }))).toEqual(defaults);
    expect(summary(await quotas({ GOOGLE_ID: "g-id", GOOGLE_SECRET: "g-secret" }))).toEqual(defaults);
    expect(
      summary(
        await quotas({
          GOOGLE_ID: "g-id",
          GOOGLE_SECRET: "g-secret",
          SEARCHMUX_OPERATOR_QUOTA_REQUESTS_DAY: "unlimited",
          SEARCHMUX_OPERATOR_QUOTA_USD_MONTH: "50",
        }),
      ),
    ).toEqual(["requests/month=10000", "usd/day=2", "usd/month=50"]);
    // Set without open sign-up, a quota applies on its own.
    expect(summary(await quotas({ SEARCHMUX_OPERATOR_QUOTA_REQUESTS_MONTH: "7" }))).toEqual([
      "requests/month=7",
    ]);
  });

  it("tells an MCP client which quota refused the call and what it can do", async () => {
    const ctx = await workspace({ SEARCHMUX_OPERATOR_QUOTA_REQUESTS_DAY: "0" });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await buildServer({ ...ctx, surface: "mcp" }, revision2025, { tasks: true }).connect(serverSide);
    const client = new Client({ name: "quota-test", version: "1.0.0" });
    await client.connect(clientSide);
    mcpClients.push(client);
    await client.listTools();
    const text = (result: Awaited<ReturnType<Client["callTool"]>>) =>
      (result.content as Array<{ text?: string }>).map((c) => c.text ?? "").join("\n");

    const refused = await client.callTool({
      name: "web_search",
      arguments: { query: "quota", providers: ["brave"] },
    });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/web_search failed \(budget_exhausted\): operator quota exhausted — /);
    expect(text(refused)).toContain("add a provider key of their own");

    const status = await client.callTool({ name: "budget_status", arguments: {} });
    expect(text(status)).toContain("Operator quotas (calls with the operator's keys");
    expect(text(status)).toContain("- requests per day: 0 requests left of 0 requests; resets ");
  });
});
