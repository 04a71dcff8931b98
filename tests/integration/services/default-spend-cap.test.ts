/**
 * A new workspace's monthly spend cap across all providers (budget `*`, usd, month;
 * SEARCHMUX_DEFAULT_MONTHLY_CAP_USD): set at creation by either way a workspace comes to be, shown in
 * budget_status, admitted like any budget (concurrent calls never spend past it, and a provider's own
 * budget binds alongside it), and an ordinary budget for admins afterwards.
 */
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditLog, usageCounters, users } from "@/lib/db/schema";
import { periodKey } from "@/lib/pipeline/budgets/periods";
import type { Env } from "@/lib/pipeline/capabilities";
import type { TenantContext } from "@/lib/pipeline/context";
import { ensurePersonalTenant } from "@/lib/services/accounts/ensure-personal-tenant";
import { budgetStatus } from "@/lib/services/budgets/budget-status";
import { deleteBudget } from "@/lib/services/budgets/delete-budget";
import { setBudget } from "@/lib/services/budgets/set-budget";
import { webSearch } from "@/lib/services/search/web-search";
import { createTenant } from "@/lib/services/tenants/create-tenant";
import { databaseTargets } from "@/tests/support/database";
import { systemCtx, tenantCtx } from "@/tests/support/platform";
import { fakeBaseUrls, serviceSuite } from "@/tests/support/service-suite";

/** Brave $0.005 and Tavily $0.008 a call, both with the operator's keys. */
const PAID = ["brave", "tavily"];

describe.each(databaseTargets())("the default spend cap on $name", (target) => {
  const s = serviceSuite(target, {
    env: (fake) => ({
      BRAVE_API_KEY: "operator-brave",
      TAVILY_API_KEY: "operator-tavily",
      ...fakeBaseUrls(fake, ["duckduckgo", ...PAID]),
    }),
  });

  async function workspace(env: Env = s.platform.env): Promise<TenantContext> {
    const platform = { ...s.platform, env };
    const tenant = await createTenant({ ctx: systemCtx(platform), input: { name: `cap-${randomUUID()}` } });
    return tenantCtx(platform, tenant.id);
  }
  const capOf = async (ctx: TenantContext) =>
    (await budgetStatus({ ctx })).budgets.find((b) => b.provider === "*" && b.period === "month");

  it("gives a new workspace $10 a month across all providers, alerting at $8, audited as a default", async () => {
    const ctx = await workspace();
    expect((await budgetStatus({ ctx })).budgets).toEqual([
      expect.objectContaining({
        name: "all providers · usd · month",
        provider: "*",
        metric: "usd",
        period: "month",
        limit: 10,
        soft: 8,
        used: 0,
        remaining: 10,
      }),
    ]);
    const audit = await ctx.db.withTenant(ctx.tenantId, (tx) =>
      tx.select().from(auditLog).where(eq(auditLog.action, "budget.default")),
    );
    expect(audit.map((row) => row.details)).toEqual([
      expect.objectContaining({ provider: "*", metric: "usd", limit: 10, reason: "default spend cap" }),
    ]);
  });

  it("gives the personal workspace of a first sign-in the same cap", async () => {
    const [user] = await s.platform.db.withSystem((tx) =>
      tx
        .insert(users)
        .values({ email: `${randomUUID()}@cap.test` })
        .returning({ id: users.id }),
    );
    if (!user) throw new Error("no user");
    const { tenantId } = await ensurePersonalTenant({
      ctx: systemCtx(s.platform),
      input: { userId: user.id },
    });
    expect(await capOf(tenantCtx(s.platform, tenantId))).toMatchObject({ limit: 10, soft: 8 });
  });

  it("takes the operator's amount, and none at all with `unlimited`", async () => {
    const custom = await workspace({ ...s.platform.env, SEARCHMUX_DEFAULT_MONTHLY_CAP_USD: "2.5" });
    expect(await capOf(custom)).toMatchObject({ limit: 2.5, soft: 2 });
    const uncapped = await workspace({ ...s.platform.env, SEARCHMUX_DEFAULT_MONTHLY_CAP_USD: "unlimited" });
    expect((await budgetStatus({ ctx: uncapped })).budgets).toEqual([]);
  });

  it("never lets concurrent searches spend past it, nor past a provider's own budget beside it", async () => {
    // $0.05: at most 3 searches of brave and tavily together ($0.013 each) fit.
    const ctx = await workspace({ ...s.platform.env, SEARCHMUX_DEFAULT_MONTHLY_CAP_USD: "0.05" });
    await setBudget({ ctx, input: { provider: "brave", metric: "requests", period: "month", limit: 2 } });
    const outcomes = await Promise.allSettled(
      Array.from({ length: 12 }, (_, i) =>
        webSearch({ ctx, input: { query: `capped ${i}`, providers: PAID, no_cache: true } }),
      ),
    );
    await ctx.usage.flush();
    const month = periodKey("month", ctx.now());
    const counters = await ctx.db.withTenant(ctx.tenantId, (tx) =>
      tx.select().from(usageCounters).where(eq(usageCounters.periodKey, month)),
    );
    const used = (provider: string, metric: string) =>
      counters.find((c) => c.provider === provider && c.metric === metric)?.used ?? 0;
    const braveCalls = s.fake.requests("brave").length;
    const tavilyCalls = s.fake.requests("tavily").length;
    // What the providers were asked is what was charged, and it fits both budgets.
    expect(braveCalls).toBeLessThanOrEqual(2);
    expect(used("brave", "requests")).toBe(braveCalls);
    expect(used("*", "usd")).toBe(braveCalls * 5_000 + tavilyCalls * 8_000);
    expect(used("*", "usd")).toBeLessThanOrEqual(50_000);
    // The cap was reached: a search is refused only when Tavily, which has no budget of its own, was.
    const refused = outcomes.filter((o) => o.status === "rejected");
    expect(refused.length).toBeGreaterThan(0);
    for (const outcome of refused) {
      expect(outcome.reason).toMatchObject({ code: "budget_exhausted" });
    }
    expect(await capOf(ctx)).toMatchObject({ used: used("*", "usd") / 1e6 });
  });

  it("is an ordinary budget for admins: raised, then removed, and other workspaces keep theirs", async () => {
    const ctx = await workspace();
    const other = await workspace();
    const cap = await capOf(ctx);
    await setBudget({ ctx, input: { provider: "*", metric: "usd", period: "month", limit: 50, soft: 40 } });
    expect(await capOf(ctx)).toMatchObject({ id: cap?.id, limit: 50, soft: 40 });
    await deleteBudget({ ctx, input: { id: cap?.id ?? "" } });
    expect((await budgetStatus({ ctx })).budgets).toEqual([]);
    expect(await capOf(other)).toMatchObject({ limit: 10 });
    await expect(
      deleteBudget({ ctx: { ...other, scopes: ["search"] }, input: { id: (await capOf(other))?.id ?? "" } }),
    ).rejects.toMatchObject({ code: "forbidden" });
  });
});
