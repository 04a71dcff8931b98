import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users } from "@/lib/db/schema";
import type { Platform, SystemContext } from "@/lib/pipeline/context";
import { listTenants } from "@/lib/services/admin/list-tenants";
import { isOperator } from "@/lib/services/admin/operator";
import { providerHealthAcrossTenants } from "@/lib/services/admin/provider-health-across-tenants";
import { setKey } from "@/lib/services/keys/set-key";
import { webSearch } from "@/lib/services/search/web-search";
import { createTenant } from "@/lib/services/tenants/create-tenant";
import { createToken } from "@/lib/services/tokens/create-token";
import { type FakeProviders, startFakeProviders } from "@/tests/fakes/provider-server";
import { databaseTargets, type TestDatabase } from "@/tests/support/database";
import { systemCtx, tenantCtx, testPlatform } from "@/tests/support/platform";

describe.each(databaseTargets())("operator verbs on $name", (target) => {
  let t: TestDatabase;
  let fake: FakeProviders;
  let platform: Platform;
  let operator: SystemContext;
  let stranger: SystemContext;

  beforeAll(async () => {
    t = await target.create();
    fake = await startFakeProviders();
    platform = testPlatform(t.db, {
      env: {
        SEARCHMUX_OPERATOR_EMAILS: "Ops@Example.test, other@example.test",
        TAVILY_BASE_URL: fake.baseUrlFor("tavily"),
        BRAVE_BASE_URL: fake.baseUrlFor("brave"),
      },
    });
    const [ops, member] = (await t.db.withSystem((tx) =>
      tx
        .insert(users)
        .values([{ email: "ops@example.test" }, { email: "member@example.test" }])
        .returning({ id: users.id }),
    )) as [{ id: string }, { id: string }];
    operator = systemCtx(platform, { kind: "user", userId: ops.id });
    stranger = systemCtx(platform, { kind: "user", userId: member.id });

    const busy = await createTenant({ ctx: systemCtx(platform), input: { name: "Busy 100% tenant" } });
    await createTenant({ ctx: systemCtx(platform), input: { name: "Quiet tenant", ownerUserId: member.id } });
    const admin = tenantCtx(platform, busy.id);
    await setKey({ ctx: admin, input: { provider: "tavily", key: "tvly-tenant-key-0001" } });
    await setKey({ ctx: admin, input: { provider: "brave", key: "brave-tenant-key-0001" } });
    await createToken({ ctx: admin, input: { name: "agent" } });
    fake.setScenario("brave", { status: 500 });
    await webSearch({ ctx: admin, input: { query: "one", providers: ["tavily", "brave"] } });
    await webSearch({ ctx: admin, input: { query: "two", providers: ["tavily", "brave"] } });
    await platform.traces.flush();
  });
  afterAll(async () => {
    await fake?.close();
    await t?.cleanup();
  });

  it("recognises operators by email, case-insensitively, and the CLI operator", async () => {
    expect(await isOperator({ ctx: operator })).toBe(true);
    expect(await isOperator({ ctx: stranger })).toBe(false);
    expect(await isOperator({ ctx: systemCtx(platform) })).toBe(true);
    const noneConfigured = systemCtx({ ...platform, env: {} }, operator.actor);
    expect(await isOperator({ ctx: noneConfigured })).toBe(false);
  });

  it("refuses every cross-tenant read to a signed-in user who is not an operator", async () => {
    await expect(listTenants({ ctx: stranger, input: {} })).rejects.toMatchObject({ code: "forbidden" });
    await expect(providerHealthAcrossTenants({ ctx: stranger, input: {} })).rejects.toMatchObject({
      code: "forbidden",
    });
  });

  it("lists tenants busiest first with members, tokens, keys, usage and spend", async () => {
    const { tenants, total } = await listTenants({ ctx: operator, input: {} });
    expect(total).toBe(2);
    expect(tenants.map((x) => x.name)).toEqual(["Busy 100% tenant", "Quiet tenant"]);
    expect(tenants[0]).toMatchObject({
      members: 0,
      active_tokens: 1,
      keys: 2,
      requests_today: 4,
      requests_month: 4,
      calls_30d: 2,
    });
    expect(tenants[0]?.usd_month).toBeGreaterThan(0);
    expect(tenants[0]?.last_call_at).not.toBeNull();
    expect(tenants[1]).toMatchObject({
      members: 1,
      active_tokens: 0,
      keys: 0,
      requests_month: 0,
      calls_30d: 0,
    });
  });

  it("pages and filters by name, treating LIKE wildcards literally", async () => {
    const second = await listTenants({ ctx: operator, input: { per_page: 1, page: 2 } });
    expect(second).toMatchObject({ total: 2, page: 2, per_page: 1 });
    expect(second.tenants.map((x) => x.name)).toEqual(["Quiet tenant"]);
    const literal = await listTenants({ ctx: operator, input: { query: "100%" } });
    expect(literal.tenants.map((x) => x.name)).toEqual(["Busy 100% tenant"]);
    expect((await listTenants({ ctx: operator, input: { query: "_" } })).total).toBe(0);
    await expect(listTenants({ ctx: operator, input: { per_page: 1000 } })).rejects.toMatchObject({
      code: "invalid_input",
    });
  });

  it("reports provider health across tenants from the trace spans", async () => {
    const { providers } = await providerHealthAcrossTenants({ ctx: operator, input: { hours: 1 } });
    const tavily = providers.find((p) => p.provider === "tavily");
    const brave = providers.find((p) => p.provider === "brave");
    expect(tavily).toMatchObject({
      name: "Tavily",
      attempts: 2,
      succeeded: 2,
      errors: 0,
      tenants: 1,
      success_rate: 1,
      status: "healthy",
    });
    expect(tavily?.p50_ms).toEqual(expect.any(Number));
    expect(tavily?.p95_ms).toBeGreaterThanOrEqual(tavily?.p50_ms ?? 0);
    expect(brave).toMatchObject({ attempts: 2, succeeded: 0, errors: 2, success_rate: 0, status: "failing" });
    expect(brave?.last_error).toEqual(expect.any(String));
  });
});
