/**
 * A budget admission that outlives the call's deadline (the database is slow: here, another transaction
 * holds the tenant's budgeted counter rows, as concurrent admissions of the same tenant do under load).
 * The call gives up on it at the deadline; when the admission commits later, nothing may stay charged
 * for a provider call that never happened, no reservation may stay open, and a half-open breaker's probe
 * slot it held is given back.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Platform, TenantContext } from "@/lib/pipeline/context";
import { createCircuitBreakers } from "@/lib/pipeline/health/circuit-breaker";
import { setBudget } from "@/lib/services/budgets/set-budget";
import { webSearch } from "@/lib/services/search/web-search";
import { createTenant } from "@/lib/services/tenants/create-tenant";
import { setUpFakeProviders } from "@/tests/fakes/set-up-fake-providers";
import { databaseTargets, type TestDatabase, withRawClient } from "@/tests/support/database";
import { systemCtx, tenantCtx, testPlatform } from "@/tests/support/platform";
import { ledger } from "./support/ledger";
import { FIVE_PROVIDERS, verbEnv } from "./support/server-env";

const target = databaseTargets().at(-1);
const DEADLINE_MS = 300;
const LOCK_HELD_MS = 1_500;

describe.runIf(target)(`an admission slower than the deadline, on ${target?.name}`, () => {
  const fake = setUpFakeProviders();
  let t: TestDatabase;
  let platform: Platform;
  let ctx: TenantContext;

  beforeAll(async () => {
    t = await (target as NonNullable<typeof target>).create();
    platform = testPlatform(t.db, { env: verbEnv(fake) });
    ctx = tenantCtx(platform, (await createTenant({ ctx: systemCtx(platform), input: { name: "slow" } })).id);
    // A budget over all providers: every admission charges the tenant's `*` counters, under their row locks.
    await setBudget({ ctx, input: { provider: "*", metric: "requests", period: "lifetime", limit: 1_000 } });
  });
  afterAll(async () => {
    await t?.cleanup();
  });

  it("leaves no reservation open and no charge without a provider call", async () => {
    const providers = [...FIVE_PROVIDERS];
    await webSearch({ ctx, input: { query: "creates the counter rows", providers, no_cache: true } });
    await platform.traces.flush();
    const before = await ledger(t.db, ctx.tenantId);
    const callsBefore = FIVE_PROVIDERS.reduce((sum, id) => sum + fake.requests(id).length, 0);

    const slowCall = await withRawClient(t.url, async (client) => {
      await client.query("begin");
      await client.query(
        `select used from usage_counters where tenant_id = $1 and provider = '*' for update`,
        [ctx.tenantId],
      );
      const call = webSearch({
        ctx,
        input: {
          query: "admission outlives the deadline",
          providers,
          no_cache: true,
          timeout_ms: DEADLINE_MS,
        },
      }).catch((error: unknown) => error);
      await new Promise((resolve) => setTimeout(resolve, LOCK_HELD_MS));
      await client.query("commit");
      return call;
    });
    expect(slowCall).toMatchObject({ code: "all_providers_failed" });
    // Let the late admissions commit, then look.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await platform.traces.flush();

    const after = await ledger(t.db, ctx.tenantId);
    const calls = FIVE_PROVIDERS.reduce((sum, id) => sum + fake.requests(id).length, 0) - callsBefore;
    expect.soft(calls).toBe(0);
    expect.soft(after.reservations.reserved).toBe(0);
    // The budgeted `*` counter is charged at admission (the others only when a call settles).
    expect.soft(after.requests["*"]).toBe(before.requests["*"]);
  }, 30_000);

  it("gives back the half-open probe of an admission the call gave up on", async () => {
    // Threshold 1 and no cool-down: one 5xx opens the tenant's breaker, and the next call is its probe.
    const probing = { ...ctx, breakers: createCircuitBreakers({ threshold: 1, cooldownMs: 0 }) };
    const searchBrave = (query: string, timeout_ms?: number) =>
      webSearch({ ctx: probing, input: { query, providers: ["brave"], no_cache: true, timeout_ms } }).catch(
        (error: { details?: unknown }) => error.details,
      );
    fake.setScenario("brave", { status: 503 });
    expect(await searchBrave("opens the breaker")).toEqual([
      expect.objectContaining({ reason: "http_error" }),
    ]);
    fake.setScenario("brave", {});

    const slowProbe = await withRawClient(t.url, async (client) => {
      await client.query("begin");
      await client.query(
        `select used from usage_counters where tenant_id = $1 and provider = '*' for update`,
        [ctx.tenantId],
      );
      const call = await searchBrave("the probe's admission outlives the deadline", DEADLINE_MS);
      await client.query("commit");
      return call;
    });
    expect(slowProbe).toEqual([expect.objectContaining({ reason: "timeout" })]);
    await new Promise((resolve) => setTimeout(resolve, 1_000)); // the late admission commits and is refunded

    // The probe never ran: the next call probes instead of finding the breaker stuck half-open.
    expect(await searchBrave("probes again")).toMatchObject({
      providers_succeeded: [expect.objectContaining({ provider: "brave" })],
    });
  }, 30_000);
});
