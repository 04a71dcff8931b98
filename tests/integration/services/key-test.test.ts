/**
 * Testing a stored key sends one real request: it is charged to the budgets like any call, the result
 * says what it spent, and its reservation is closed whatever happens — also when the probe throws after
 * the provider answered (kept) — so nothing is left for the sweep.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { reservations } from "@/lib/db/schema";
import type { Platform, TenantContext } from "@/lib/pipeline/context";
import { budgetStatus } from "@/lib/services/budgets/budget-status";
import { setKey } from "@/lib/services/keys/set-key";
import { testKey } from "@/lib/services/keys/test-key";
import { createTenant } from "@/lib/services/tenants/create-tenant";
import { FETCH_WIRES, PROBE_PAGE_WIRES } from "@/tests/fakes/fetch-wires";
import { type FakeProviders, startFakeProviders } from "@/tests/fakes/provider-server";
import { databaseTargets, type TestDatabase } from "@/tests/support/database";
import { systemCtx, tenantCtx, testPlatform } from "@/tests/support/platform";

/** Fusion, the step after the provider answered, made to throw. */
const failing = vi.hoisted(() => ({ fusion: false }));
vi.mock("@/lib/engine/search/fusion", async (original) => {
  const actual = await original<typeof import("@/lib/engine/search/fusion")>();
  return {
    ...actual,
    fuseResults: (...args: Parameters<typeof actual.fuseResults>) => {
      if (failing.fusion) throw new Error("fusion failed");
      return actual.fuseResults(...args);
    },
  };
});

const TAVILY_USD = 0.008;

describe.each(databaseTargets())("testing a stored key on $name", (target) => {
  let t: TestDatabase;
  let fake: FakeProviders;
  let platform: Platform;

  /** A workspace with its own Tavily key. */
  const workspace = async () => {
    const ctx = tenantCtx(
      platform,
      (await createTenant({ ctx: systemCtx(platform), input: { name: "key test" } })).id,
    );
    await setKey({ ctx, input: { provider: "tavily", key: "tvly-own-key" } });
    return ctx;
  };
  const reservationStates = async (ctx: TenantContext) =>
    (await ctx.db.withTenant(ctx.tenantId, (tx) => tx.select().from(reservations))).map((r) => r.status);
  const tavilyRequests = async (ctx: TenantContext) =>
    (await budgetStatus({ ctx })).providers.find((p) => p.provider === "tavily")?.requests.lifetime ?? 0;

  beforeAll(async () => {
    t = await target.create();
    fake = await startFakeProviders({ ...FETCH_WIRES, ...PROBE_PAGE_WIRES });
    platform = testPlatform(t.db, {
      env: {
        TAVILY_BASE_URL: fake.baseUrlFor("tavily"),
        GITHUB_API_BASE_URL: fake.baseUrlFor("fetch-github"),
      },
    });
  });
  afterAll(async () => {
    await fake?.close();
    await t?.cleanup();
  });
  beforeEach(() => {
    failing.fusion = false;
    fake.resetScenarios();
  });

  it("says what an accepted key's test spent, and charges it", async () => {
    const ctx = await workspace();
    fake.setScenario("tavily", { expectedApiKey: "tvly-own-key" });
    expect(await testKey({ ctx, input: { provider: "tavily" } })).toMatchObject({
      status: "ok",
      spent: { requests: 1, usd: TAVILY_USD },
    });
    expect(await tavilyRequests(ctx)).toBe(1);
    expect(await reservationStates(ctx)).toEqual(["settled"]);
  });

  it("spends nothing when the provider refuses the key", async () => {
    const ctx = await workspace();
    fake.setScenario("tavily", { expectedApiKey: "another-key" });
    expect(await testKey({ ctx, input: { provider: "tavily" } })).toMatchObject({
      status: "invalid",
      spent: { requests: 0, usd: 0 },
    });
    expect(await tavilyRequests(ctx)).toBe(0);
    expect(await reservationStates(ctx)).toEqual(["released"]);
  });

  it("closes its reservation when the probe throws after the provider answered", async () => {
    const ctx = await workspace();
    failing.fusion = true;
    await expect(testKey({ ctx, input: { provider: "tavily" } })).rejects.toThrow("fusion failed");
    expect(fake.requests("tavily")).not.toHaveLength(0);
    // The request reached the provider: its charge is kept, not left reserved for the sweep.
    expect(await reservationStates(ctx)).toEqual(["settled"]);
    expect(await tavilyRequests(ctx)).toBe(1);
  });

  it("tests a domain route's key on a page of its own site", async () => {
    const ctx = tenantCtx(
      platform,
      (await createTenant({ ctx: systemCtx(platform), input: { name: "domain route" } })).id,
    );
    await setKey({ ctx, input: { provider: "github", key: "ghp_own0123456789" } });
    fake.setScenario("fetch-github", { expectedApiKey: "ghp_own0123456789" });
    expect(await testKey({ ctx, input: { provider: "github" } })).toMatchObject({ status: "ok" });
    // Not "ok" for a call never made: example.com is no GitHub page, its probe page is.
    expect(fake.requests("fetch-github").map((r) => r.path)).toEqual(["/repos/octocat/Hello-World/readme"]);
    fake.setScenario("fetch-github", { expectedApiKey: "another-token" });
    expect(await testKey({ ctx, input: { provider: "github" } })).toMatchObject({ status: "invalid" });
  });
});
