/**
 * web_search's auto mode and the workspace's default mode through the verbs, on a real database and the
 * fake provider server. Every provider answers the same pages (the fake's default), so once measured auto
 * leaves the paid ones (brave with the operator's key, tavily with the workspace's) out: the free ones
 * (duckduckgo, searxng, wikipedia) find everything. The learner never explores here, so plans are fixed.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditLog } from "@/lib/db/schema";
import type { Kv } from "@/lib/kv";
import type { Platform, TenantContext } from "@/lib/pipeline/context";
import { MIN_OBSERVATIONS } from "@/lib/pipeline/contribution/auto-plan";
import { kvLearner } from "@/lib/pipeline/contribution/learner";
import { budgetStatus } from "@/lib/services/budgets/budget-status";
import { setBudget } from "@/lib/services/budgets/set-budget";
import { setKey } from "@/lib/services/keys/set-key";
import { webSearch } from "@/lib/services/search/web-search";
import { createTenant } from "@/lib/services/tenants/create-tenant";
import { updateWorkspaceSettings, workspaceSettings } from "@/lib/services/tenants/workspace-settings";
import { getTrace } from "@/lib/services/traces/get-trace";
import { countingKv } from "@/tests/support/counting-kv";
import { primaryTarget } from "@/tests/support/database";
import { systemCtx, tenantCtx } from "@/tests/support/platform";
import { fakeBaseUrls, serviceSuite } from "@/tests/support/service-suite";
import { testRedisKv } from "@/tests/support/test-redis";

const PAID = ["brave", "tavily"];
const FREE = ["duckduckgo", "searxng", "wikipedia"];

describe.each(primaryTarget())("auto mode and the workspace's default mode on $name", (target) => {
  const s = serviceSuite(target, {
    env: (fake) => ({
      BRAVE_API_KEY: "operator-brave",
      SEARXNG_URL: fake.baseUrlFor("searxng"),
      ...fakeBaseUrls(fake, ["duckduckgo", "wikipedia", "tavily", "brave", "exa"]),
    }),
    platform: { learner: kvLearner({ random: () => 0.99 }) },
  });

  /** A new workspace with its own tavily key, on `platform` (the suite's unless given). */
  async function workspace(name: string, platform: Platform = s.platform): Promise<TenantContext> {
    const ctx = tenantCtx(platform, (await createTenant({ ctx: systemCtx(platform), input: { name } })).id);
    await setKey({ ctx, input: { provider: "tavily", key: `tvly-${name}` } });
    return ctx;
  }

  /** Searches until every paid provider is measured (each a full fan-out), then waits for the writes. */
  async function measure(ctx: TenantContext): Promise<void> {
    for (let i = 0; i < MIN_OBSERVATIONS; i++) await webSearch({ ctx, input: { query: `measure ${i}` } });
    await ctx.usage.flush();
  }

  const calls = () => Object.fromEntries([...PAID, ...FREE].map((id) => [id, s.fake.requests(id).length]));

  it("runs a new workspace in auto mode: everyone until measured, then the free providers only, and says why", async () => {
    const ctx = await workspace("auto-default");
    expect((await workspaceSettings({ ctx })).default_search_mode).toBe("auto");
    const first = await webSearch({ ctx, input: { query: "first" } });
    expect(first.auto).toBe("measuring");
    expect(first.providers_skipped).toEqual([]);
    await measure(ctx);

    s.fake.clearRequests();
    const planned = await webSearch({ ctx, input: { query: "planned" } });
    expect(planned.auto).toBe("planned");
    expect(planned.providers_skipped).toEqual([
      { provider: "tavily", reason: "low_contribution" },
      { provider: "brave", reason: "low_contribution" },
    ]);
    expect(calls()).toMatchObject({ brave: 0, tavily: 0, duckduckgo: 1, searxng: 1, wikipedia: 1 });
    expect(planned.results.length).toBeGreaterThan(0);

    await s.platform.traces.flush();
    const trace = await getTrace({ ctx, input: { id: planned.trace_id } });
    expect(trace.input).toMatchObject({ mode: "auto" });
    expect(trace.summary).toMatchObject({ auto: "planned", skipped: planned.providers_skipped });
  });

  it("gives a call that names `mode` or `providers` exactly that", async () => {
    const ctx = await workspace("explicit");
    await measure(ctx);
    s.fake.clearRequests();
    const fanout = await webSearch({ ctx, input: { query: "named fanout", mode: "fanout" } });
    expect(fanout.providers_skipped).toEqual([]);
    expect(fanout.auto).toBeUndefined();
    expect(calls()).toMatchObject({ brave: 1, tavily: 1 });

    s.fake.clearRequests();
    const subset = await webSearch({ ctx, input: { query: "named providers", providers: ["brave"] } });
    expect(subset.providers_succeeded.map((p) => p.provider)).toEqual(["brave"]);
    expect(subset.auto).toBeUndefined();
    expect(calls()).toMatchObject({ brave: 1, tavily: 0, duckduckgo: 0 });

    s.fake.clearRequests();
    const both = await webSearch({
      ctx,
      input: { query: "auto subset", mode: "auto", providers: ["brave", "duckduckgo"] },
    });
    expect(both.providers_skipped).toEqual([{ provider: "brave", reason: "low_contribution" }]);
    expect(calls()).toMatchObject({ brave: 0, duckduckgo: 1 });
  });

  it("lets the workspace's default decide for calls that name neither, changed by an admin with an audit row", async () => {
    const ctx = await workspace("defaults");
    await measure(ctx);
    await updateWorkspaceSettings({ ctx, input: { default_search_mode: "fanout" } });
    s.fake.clearRequests();
    const fanout = await webSearch({ ctx, input: { query: "default fanout" } });
    expect(fanout.auto).toBeUndefined();
    expect(calls()).toMatchObject({ brave: 1, tavily: 1 });

    await updateWorkspaceSettings({ ctx, input: { default_search_mode: "budget" } });
    s.fake.clearRequests();
    await webSearch({ ctx, input: { query: "default budget", max_results: 3 } });
    // Free providers first: the first one's three pages are enough.
    expect(Object.values(calls()).reduce((a, b) => a + b, 0)).toBe(1);

    const audit = await ctx.db.withTenant(ctx.tenantId, (tx) =>
      tx.select({ details: auditLog.details }).from(auditLog).where(eq(auditLog.action, "tenant.update")),
    );
    expect(audit.map((row) => row.details)).toEqual([
      expect.objectContaining({ defaultSearchMode: "fanout" }),
      expect.objectContaining({ defaultSearchMode: "budget" }),
    ]);
  });

  it("refuses the setting to non-admins and to unknown modes", async () => {
    const ctx = await workspace("settings-guard");
    const member = { ...ctx, scopes: ["search" as const] };
    await expect(workspaceSettings({ ctx: member })).rejects.toMatchObject({ code: "forbidden" });
    await expect(
      updateWorkspaceSettings({ ctx: member, input: { default_search_mode: "fanout" } }),
    ).rejects.toMatchObject({ code: "forbidden" });
    await expect(
      updateWorkspaceSettings({ ctx, input: { default_search_mode: "single" as "fanout" } }),
    ).rejects.toMatchObject({ code: "invalid_input" });
    await expect(updateWorkspaceSettings({ ctx, input: {} })).rejects.toMatchObject({
      code: "invalid_input",
    });
    expect((await workspaceSettings({ ctx })).default_search_mode).toBe("auto");
  });

  it("names providers refused for budget or by an open breaker in providers_skipped", async () => {
    const ctx = await workspace("refusals");
    await setBudget({ ctx, input: { provider: "brave", metric: "requests", period: "day", limit: 1 } });
    await webSearch({ ctx, input: { query: "spends brave", mode: "fanout" } });
    const refused = await webSearch({ ctx, input: { query: "brave spent", mode: "fanout" } });
    expect(refused.providers_skipped).toEqual([{ provider: "brave", reason: "budget" }]);
    expect(refused.providers_failed).toContainEqual(
      expect.objectContaining({ provider: "brave", reason: "budget_exhausted" }),
    );

    s.fake.setScenario("tavily", { status: 500 });
    for (let i = 0; i < 5; i++)
      await webSearch({ ctx, input: { query: `tavily fails ${i}`, mode: "fanout" } });
    const rested = await webSearch({ ctx, input: { query: "tavily rested", mode: "fanout" } });
    expect(rested.providers_skipped).toContainEqual({ provider: "tavily", reason: "breaker_open" });
  });

  it("shows each provider's measured contribution and cost per useful result in budget_status, per workspace", async () => {
    const ctx = await workspace("contributions");
    const other = await workspace("contributions-other");
    const before = await budgetStatus({ ctx });
    expect(before.search_contributions).toEqual({ observations: 0, providers: [] });
    await measure(ctx);
    const { search_contributions: seen } = await budgetStatus({ ctx });
    expect(seen.observations).toBe(MIN_OBSERVATIONS);
    const brave = seen.providers.find((p) => p.provider === "brave");
    expect(brave).toEqual({
      provider: "brave",
      searches: MIN_OBSERVATIONS,
      top_results_per_search: 3,
      only_source_per_search: 0,
      cost_per_useful_result_usd: Number((0.005 / 3).toFixed(6)),
      measured: true,
    });
    expect(seen.providers.find((p) => p.provider === "duckduckgo")?.cost_per_useful_result_usd).toBe(0);
    expect(seen.providers.map((p) => p.provider).sort()).toEqual([...PAID, ...FREE].sort());
    // Another workspace learned nothing from these searches.
    expect((await budgetStatus({ ctx: other })).search_contributions).toEqual({
      observations: 0,
      providers: [],
    });
  });

  it("shares what one instance learns with another through Redis", async () => {
    const kv = testRedisKv();
    try {
      const instance = () => ({ ...s.platform, kv, learner: kvLearner({ random: () => 0.99 }) });
      const first = await workspace("shared", instance());
      await measure(first);
      const second = tenantCtx(instance(), first.tenantId);
      const planned = await webSearch({ ctx: second, input: { query: "on the other instance" } });
      expect(planned.auto).toBe("planned");
      expect(planned.providers_skipped.map((p) => p.provider)).toEqual(["tavily", "brave"]);
    } finally {
      await kv.close();
    }
  });

  it("reads KV once for a cached auto search, as for a cached fanout one", async () => {
    const kv = countingKv(s.platform.kv);
    const platform = { ...s.platform, kv, learner: kvLearner({ random: () => 0.99 }) };
    const ctx = await workspace("round-trips", platform);
    await measure(ctx);
    for (const mode of ["auto", "fanout"] as const) {
      const input = { query: `cached ${mode}`, mode };
      expect((await webSearch({ ctx, input })).cache_hit).toBe(false);
      await ctx.usage.flush();
      kv.roundTrips = 0;
      expect((await webSearch({ ctx, input })).cache_hit).toBe(true);
      expect({ mode, roundTrips: kv.roundTrips }).toEqual({ mode, roundTrips: 1 });
    }
  });

  it("records what it learns after the answer: a held KV write does not hold the search", async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const base = s.platform.kv;
    const holding: Kv = {
      ...base,
      incr: async (key, by) => {
        if (key.startsWith("smx:learn:")) await held;
        return base.incr(key, by);
      },
    };
    const platform = { ...s.platform, kv: holding, learner: kvLearner({ random: () => 0.99 }) };
    const ctx = await workspace("after-answer", platform);
    const result = await webSearch({ ctx, input: { query: "answered before written" } });
    expect(result.providers_succeeded.length).toBeGreaterThan(0);
    expect(await ctx.learner.observations(ctx)).toEqual([]);
    release();
    await ctx.usage.flush();
    expect(await ctx.learner.observations(ctx)).toHaveLength(1);
  });
});
