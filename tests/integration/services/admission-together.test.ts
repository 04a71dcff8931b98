/**
 * Performance #19: admit_fanout admits a fan-out that fits every limit it touches all at once
 * (admit_calls_together) and goes call by call otherwise. Both must answer the same: the same batches
 * (budgets with soft limits, a `*` budget, a monthly anchor, an operator quota, replays, a key repeated
 * in its batch, batches that exhaust a limit) are admitted on two databases, one of them with the
 * all-at-once path switched off, and every answer, reservation, counter and alert is compared.
 */
import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { budgetAlerts, budgets, reservations, usageCounters } from "@/lib/db/schema";
import { admitAll } from "@/lib/pipeline/budgets/admission";
import type { AdmissionRequest } from "@/lib/pipeline/capabilities";
import type { Platform, TenantContext } from "@/lib/pipeline/context";
import { setBudget } from "@/lib/services/budgets/set-budget";
import { createTenant } from "@/lib/services/tenants/create-tenant";
import { databaseTargets, type TestDatabase } from "@/tests/support/database";
import { systemCtx, tenantCtx, testPlatform } from "@/tests/support/platform";

const PROVIDERS = ["brave", "tavily", "exa", "serper"];
const COSTS = [0, 1000, 3000];
const BATCHES = 40;

/** A small deterministic generator (mulberry32), so a failure replays. */
function random(seed: number) {
  let state = seed;
  return (below: number) => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) % below;
  };
}

/** The batches both databases admit: keys shared, so replays are replays on both. */
function batches(): AdmissionRequest[][] {
  const next = random(19);
  const used: string[] = [];
  return Array.from({ length: BATCHES }, () => {
    const calls = Array.from({ length: 1 + next(6) }, (): AdmissionRequest => {
      const replay = used.length > 0 && next(8) === 0;
      const key = replay ? (used[next(used.length)] as string) : randomUUID();
      used.push(key);
      return {
        provider: PROVIDERS[next(PROVIDERS.length)] as string,
        costMicros: COSTS[next(COSTS.length)] as number,
        idempotencyKey: key,
        drawsOnOperator: next(2) === 0,
      };
    });
    const first = calls[0];
    if (first && next(10) === 0) calls.push({ ...first }); // the same key twice in one batch
    return calls;
  });
}

describe.each(databaseTargets())("admission all at once on $name", (target) => {
  const databases: TestDatabase[] = [];
  let together: TenantContext;
  let oneByOne: TenantContext;

  async function workspace(t: TestDatabase): Promise<TenantContext> {
    const env = { ...process.env, SEARCHMUX_OPERATOR_QUOTA_REQUESTS_DAY: "60" };
    const platform: Platform = testPlatform(t.db, { env });
    const tenant = await createTenant({ ctx: systemCtx(platform), input: { name: `a-${randomUUID()}` } });
    const ctx = tenantCtx(platform, tenant.id);
    for (const input of [
      { provider: "brave", metric: "requests", period: "month", limit: 25, soft: 15 },
      { provider: "*", metric: "usd", period: "day", limit: 0.15, soft: 0.1 },
      { provider: "tavily", metric: "requests", period: "lifetime", limit: 25 },
      { provider: "exa", metric: "requests", period: "month", limit: 15, soft: 10, anchorDay: 15 },
    ] as const)
      await setBudget({ ctx, input });
    return ctx;
  }

  beforeAll(async () => {
    for (let i = 0; i < 2; i++) databases.push(await target.create());
    const [first, second] = databases as [TestDatabase, TestDatabase];
    together = await workspace(first);
    oneByOne = await workspace(second);
    // The second database decides every batch call by call.
    await second.db.callFunction(sql`
      create or replace function admit_calls_together(p_tenant uuid, p_calls jsonb, p_day text,
        p_months jsonb, p_quotas jsonb, p_expires timestamptz)
      returns jsonb language sql as 'select null::jsonb'`);
  }, 120_000);
  afterAll(async () => {
    for (const t of databases) await t.cleanup();
  });

  /** What a database holds for its tenant, without ids that differ between the two. */
  async function state(ctx: TenantContext) {
    return ctx.db.withTenant(ctx.tenantId, async (tx) => {
      const budgetRows = await tx.select().from(budgets);
      const budgetOf = new Map(budgetRows.map((b) => [b.id, `${b.provider}/${b.metric}/${b.period}`]));
      const byKey = <T extends Record<string, unknown>>(rows: T[], key: (row: T) => string) =>
        rows.map((row) => ({ key: key(row), row })).sort((a, b) => (a.key < b.key ? -1 : 1));
      return {
        reservations: byKey(
          (await tx.select().from(reservations)).map((r) => ({
            key: r.idempotencyKey,
            provider: r.provider,
            amount: r.amount,
            charges: r.charges,
            deferred: r.deferredCharges,
          })),
          (r) => r.key,
        ),
        counters: byKey(
          (await tx.select().from(usageCounters)).map((c) => ({
            counter: `${c.provider}/${c.metric}/${c.periodKey}`,
            used: c.used,
          })),
          (c) => c.counter,
        ),
        alerts: byKey(
          (await tx.select().from(budgetAlerts)).map((a) => ({
            budget: budgetOf.get(a.budgetId ?? "") ?? "quota",
            kind: a.kind,
            period: a.periodKey,
            used: a.used,
            limit: a.limit,
          })),
          (a) => `${a.budget}/${a.kind}/${a.period}`,
        ),
      };
    });
  }

  const answer = (results: Awaited<ReturnType<typeof admitAll>>) =>
    results.map((r) =>
      r.ok
        ? { ok: true, replayed: r.replayed }
        : { ok: false, exhausted: r.exhausted.map(({ budgetId: _, ...rest }) => rest) },
    );

  it("answers, reserves, counts and alerts exactly as admitting call by call", async () => {
    let refused = 0;
    let replayed = 0;
    for (const batch of batches()) {
      const fast = answer(await admitAll(together, batch));
      const slow = answer(await admitAll(oneByOne, batch));
      expect(fast).toEqual(slow);
      refused += fast.filter((r) => !r.ok).length;
      replayed += fast.filter((r) => r.ok && r.replayed).length;
    }
    // The batches reached the limits and replayed keys: both paths were exercised.
    expect(refused).toBeGreaterThan(0);
    expect(replayed).toBeGreaterThan(0);
    const [fast, slow] = [await state(together), await state(oneByOne)];
    expect(fast.alerts.map((a) => a.row.kind)).toContain("soft_limit");
    expect(fast).toEqual(slow);
  }, 120_000);
});
