/**
 * Budget admission for one provider call, never read-then-write:
 *
 * 1. A reservation row is inserted under the caller's idempotency key (a replay of the key is admitted
 *    again without a second charge).
 * 2. One INSERT … ON CONFLICT DO UPDATE … WHERE charges every counter a budget limits — of the provider
 *    and `*`, requests (1) and usd (the call's cost), for the day, the month(s) and the lifetime — each
 *    only if it stays within its hard limit. A call that draws on the operator (its key or model) also
 *    charges the operator's counters, which its quotas limit the same way (operator-quota.ts). Postgres re-checks the WHERE on the locked, latest row
 *    version, so concurrent admissions can never overshoot. The counters no budget limits only record
 *    usage: they are added when the call settles, in batches (usage-sink.ts), so they never make
 *    concurrent admissions wait on each other's row locks.
 * 3. If any budgeted counter refused, the transaction rolls back: nothing is charged, and the caller
 *    learns which budgets are exhausted and when they reset.
 *
 * After the call the reservation is settled (kept) or released (refunded) — see settle/release below.
 * Counters are kept for every settled call, budgeted or not; they are also the usage figures.
 */
import { and, eq, inArray, type SQL, sql } from "drizzle-orm";
import { queryRows, type Tx } from "@/lib/db";
import { budgetAlerts, budgets, type Charge, reservations } from "@/lib/db/schema";
import type { TenantContext } from "@/lib/services/context";
import type { ExhaustedBudget, Limit } from "./limits";
import { OPERATOR_SCOPE, operatorQuotaLimits } from "./operator-quota";
import { type Period, periodKey, periodResetsAt } from "./periods";

/** Reservations left unsettled this long (a crashed call) are refunded by the sweep. */
export const RESERVATION_TTL_SECONDS = 600;

export interface AdmissionRequest {
  provider: string;
  costMicros: number;
  idempotencyKey: string;
  /** The call uses the operator's key or model: the operator's quotas apply too. */
  drawsOnOperator?: boolean;
}

export type AdmissionResult =
  | { ok: true; reservationId: string; replayed: boolean }
  | { ok: false; exhausted: ExhaustedBudget[] };

interface PlannedCharge {
  charge: Charge;
  budget?: Limit;
}

class Refused extends Error {
  constructor(readonly exhausted: Array<ExhaustedBudget & { periodKey: string }>) {
    super("budget exhausted");
  }
}

/** Records each exhausted budget once per period (outside the refused, rolled-back transaction). */
async function recordExhausted(
  ctx: TenantContext,
  exhausted: Array<ExhaustedBudget & { periodKey: string }>,
) {
  const budgetsOnly = exhausted.filter((b) => b.budgetId !== null); // quotas have no budget row
  if (budgetsOnly.length === 0) return;
  await ctx.db.withTenant(ctx.tenantId, async (tx) => {
    for (const b of budgetsOnly) {
      await tx.execute(sql`
        insert into budget_alerts (tenant_id, budget_id, kind, period_key, used, "limit")
        select ${ctx.tenantId}::uuid, ${b.budgetId}::uuid, 'exhausted', ${b.periodKey},
               coalesce((select used from usage_counters where provider = ${b.provider}
                          and metric = ${b.metric}::budget_metric and period_key = ${b.periodKey}), 0),
               ${b.limit}
        on conflict do nothing`);
    }
  });
}

/** The counters one call charges, each with the budget or quota (if any) that limits it. */
function planCharges(request: AdmissionRequest, rows: Limit[], at: Date): PlannedCharge[] {
  const { provider, costMicros } = request;
  const planned = new Map<string, PlannedCharge>();
  for (const scope of [provider, "*", ...(request.drawsOnOperator ? [OPERATOR_SCOPE] : [])]) {
    for (const metric of ["requests", "usd"] as const) {
      const amount = metric === "requests" ? 1 : costMicros;
      if (amount === 0) continue;
      const scoped = rows.filter((b) => b.provider === scope && b.metric === metric);
      const anchors = new Set([1, ...scoped.filter((b) => b.period === "month").map((b) => b.anchorDay)]);
      const keys: Array<[Period, string, number]> = [
        ["day", periodKey("day", at), 1],
        ...[...anchors].map((anchor): [Period, string, number] => [
          "month",
          periodKey("month", at, anchor),
          anchor,
        ]),
        ["lifetime", "lifetime", 1],
      ];
      for (const [period, key, anchor] of keys) {
        const budget = scoped.find(
          (b) => b.period === period && (period !== "month" || b.anchorDay === anchor),
        );
        planned.set(`${scope}|${metric}|${key}`, { charge: [scope, metric, key, amount], budget });
      }
    }
  }
  return [...planned.values()];
}

function chargeValues(planned: PlannedCharge[]): SQL {
  return sql.join(
    planned.map(
      ({ charge: [provider, metric, key, amount], budget }) =>
        sql`(${provider}::text, ${metric}::text, ${key}::text, ${amount}::bigint, ${budget?.hardLimit ?? null}::bigint)`,
    ),
    sql`, `,
  );
}

async function chargeCounters(tx: Tx, tenantId: string, planned: PlannedCharge[]) {
  const rows = await queryRows<{ provider: string; metric: string; period_key: string; used: string }>(
    tx,
    sql`
    with v(provider, metric, period_key, amount, lim) as (values ${chargeValues(planned)})
    insert into usage_counters as c (tenant_id, provider, metric, period_key, used)
    select ${tenantId}::uuid, v.provider, v.metric::budget_metric, v.period_key, v.amount from v
     where v.lim is null or v.amount <= v.lim
    on conflict (tenant_id, provider, metric, period_key) do update
       set used = c.used + excluded.used, updated_at = now()
     where c.used + excluded.used <= coalesce(
       (select v.lim from v where v.provider = excluded.provider and v.metric = excluded.metric::text
                            and v.period_key = excluded.period_key), 9223372036854775807)
    returning c.provider, c.metric::text as metric, c.period_key, c.used`,
  );
  return rows.map((row) => ({ ...row, used: Number(row.used) }));
}

const chargeKey = (provider: string, metric: string, key: string) => `${provider}|${metric}|${key}`;

/** Records soft-limit crossings (once per budget and period). */
async function recordSoftLimits(
  tx: Tx,
  tenantId: string,
  planned: PlannedCharge[],
  charged: Array<{ provider: string; metric: string; period_key: string; used: number }>,
) {
  const usedByKey = new Map(
    charged.map((row) => [chargeKey(row.provider, row.metric, row.period_key), row.used]),
  );
  const crossings = planned.flatMap(({ charge: [provider, metric, key, amount], budget }) => {
    const used = usedByKey.get(chargeKey(provider, metric, key));
    if (
      !budget?.softLimit ||
      budget.budgetId === null ||
      used === undefined ||
      used < budget.softLimit ||
      used - amount >= budget.softLimit
    ) {
      return [];
    }
    return [
      {
        tenantId,
        budgetId: budget.budgetId,
        kind: "soft_limit" as const,
        periodKey: key,
        used,
        limit: budget.softLimit,
      },
    ];
  });
  if (crossings.length > 0) await tx.insert(budgetAlerts).values(crossings).onConflictDoNothing();
}

/** A call's counters: those a limit applies to (charged at admission) and the rest (added when it settles). */
function splitCharges(request: AdmissionRequest, rows: Limit[], at: Date) {
  const planned = planCharges(request, rows, at).filter((p) => p.budget);
  const budgeted = new Set(planned.map(({ charge: [p, m, k] }) => chargeKey(p, m, k)));
  const deferred = planCharges(request, [], at)
    .map((p) => p.charge)
    .filter(([p, m, k]) => !budgeted.has(chargeKey(p, m, k)));
  return { planned, deferred };
}

/** The tenant's budgets for these providers and `*`, and the operator's quotas. */
async function limitsFor(tx: Tx, ctx: TenantContext, providers: string[]): Promise<Limit[]> {
  const rows = await tx
    .select()
    .from(budgets)
    .where(and(eq(budgets.tenantId, ctx.tenantId), inArray(budgets.provider, [...providers, "*"])));
  return [
    ...rows.map((b) => ({
      budgetId: b.id,
      provider: b.provider,
      metric: b.metric,
      period: b.period,
      hardLimit: b.hardLimit,
      softLimit: b.softLimit,
      anchorDay: b.anchorDay,
    })),
    ...operatorQuotaLimits(ctx.env),
  ];
}

const reservationRow = (
  ctx: TenantContext,
  request: AdmissionRequest,
  at: Date,
  { planned, deferred }: ReturnType<typeof splitCharges>,
) => ({
  tenantId: ctx.tenantId,
  idempotencyKey: request.idempotencyKey,
  provider: request.provider,
  charges: planned.map((p) => p.charge),
  deferredCharges: deferred,
  amount: request.costMicros,
  expiresAt: new Date(at.getTime() + RESERVATION_TTL_SECONDS * 1000),
});

/**
 * Admits the provider calls one tool call makes at once. When no budget limits any of them there is
 * nothing to check: one transaction records every reservation. Otherwise each is admitted on its own,
 * so that a refusal leaves the others' charges untouched.
 */
export async function admitAll(ctx: TenantContext, requests: AdmissionRequest[]): Promise<AdmissionResult[]> {
  const at = ctx.now();
  const unbudgeted = await ctx.db.withTenant(ctx.tenantId, async (tx) => {
    const rows = await limitsFor(tx, ctx, [...new Set(requests.map((r) => r.provider))]);
    const splits = requests.map((request) => splitCharges(request, rows, at));
    if (splits.some((split) => split.planned.length > 0)) return undefined;
    const inserted = await tx
      .insert(reservations)
      .values(
        requests.map((request, i) => reservationRow(ctx, request, at, splits[i] as (typeof splits)[number])),
      )
      .onConflictDoNothing()
      .returning({ id: reservations.id, key: reservations.idempotencyKey });
    const fresh = new Map(inserted.map((row) => [row.key, row.id]));
    const replayedKeys = requests.map((r) => r.idempotencyKey).filter((key) => !fresh.has(key));
    const replayed = new Map(
      replayedKeys.length === 0
        ? []
        : (
            await tx
              .select({ id: reservations.id, key: reservations.idempotencyKey })
              .from(reservations)
              .where(inArray(reservations.idempotencyKey, replayedKeys))
          ).map((row) => [row.key, row.id]),
    );
    return requests.map((request): AdmissionResult => {
      const id = fresh.get(request.idempotencyKey);
      if (id) return { ok: true, reservationId: id, replayed: false };
      const existing = replayed.get(request.idempotencyKey);
      if (!existing) throw new Error("reservation conflict without a row");
      return { ok: true, reservationId: existing, replayed: true };
    });
  });
  return unbudgeted ?? Promise.all(requests.map((request) => admit(ctx, request)));
}

export async function admit(ctx: TenantContext, request: AdmissionRequest): Promise<AdmissionResult> {
  const at = ctx.now();
  try {
    return await ctx.db.withTenant(ctx.tenantId, async (tx) => {
      const rows = await limitsFor(tx, ctx, [request.provider]);
      // Only counters a limit applies to are charged now; the others are added when the call settles.
      const split = splitCharges(request, rows, at);
      const { planned } = split;
      const [reservation] = await tx
        .insert(reservations)
        .values(reservationRow(ctx, request, at, split))
        .onConflictDoNothing()
        .returning({ id: reservations.id });
      if (!reservation) {
        const [existing] = await tx
          .select({ id: reservations.id })
          .from(reservations)
          .where(eq(reservations.idempotencyKey, request.idempotencyKey));
        if (!existing) throw new Error("reservation conflict without a row");
        return { ok: true as const, reservationId: existing.id, replayed: true };
      }

      const charged = planned.length > 0 ? await chargeCounters(tx, ctx.tenantId, planned) : [];
      if (charged.length < planned.length) {
        const admitted = new Set(charged.map((row) => chargeKey(row.provider, row.metric, row.period_key)));
        throw new Refused(
          planned
            .filter(({ charge: [p, m, k], budget }) => budget && !admitted.has(chargeKey(p, m, k)))
            .map(({ budget }) => budget as Limit)
            .map((b) => ({
              kind: b.budgetId === null ? ("operator_quota" as const) : ("budget" as const),
              budgetId: b.budgetId,
              periodKey: periodKey(b.period, at, b.anchorDay),
              provider: b.budgetId === null ? "*" : b.provider,
              metric: b.metric,
              period: b.period,
              limit: b.hardLimit,
              resetsAt: periodResetsAt(b.period, at, b.anchorDay),
            })),
        );
      }
      await recordSoftLimits(tx, ctx.tenantId, planned, charged);
      return { ok: true as const, reservationId: reservation.id, replayed: false };
    });
  } catch (error) {
    if (!(error instanceof Refused)) throw error;
    await recordExhausted(ctx, error.exhausted);
    return { ok: false, exhausted: error.exhausted.map(({ periodKey: _, ...budget }) => budget) };
  }
}

/**
 * Refunds reservations still `reserved` that match `where`, in one statement: marks them released and
 * subtracts each recorded charge from its counter. Used for non-billable failures and by the sweep.
 */
async function refund(tx: Tx, where: SQL): Promise<number> {
  const [row] = await queryRows<{ released: string }>(
    tx,
    sql`
    with released as (
      update reservations set status = 'released', settled_at = now()
       where status = 'reserved' and ${where}
      returning tenant_id, charges
    ), charges as (
      select r.tenant_id, c->>0 as provider, c->>1 as metric, c->>2 as period_key, sum((c->>3)::bigint) as amount
        from released r, jsonb_array_elements(r.charges) c
       group by 1, 2, 3, 4
    ), refunded as (
      update usage_counters u set used = greatest(u.used - charges.amount, 0), updated_at = now()
        from charges
       where u.tenant_id = charges.tenant_id and u.provider = charges.provider
         and u.metric = charges.metric::budget_metric and u.period_key = charges.period_key
      returning 1
    )
    select (select count(*) from released) as released`,
  );
  return Number(row?.released ?? 0);
}

/**
 * Closes a tool call's reservations in one transaction: `kept` calls happened (or may have been billed),
 * so their charges stay and the usage no budget limits is recorded; `refunded` calls were definitively
 * not billable (refused connection, bad key, 429), so their charges are subtracted again.
 */
export async function closeReservations(
  ctx: TenantContext,
  { kept, refunded }: { kept: readonly string[]; refunded: readonly string[] },
): Promise<void> {
  if (kept.length === 0 && refunded.length === 0) return;
  const settled = await ctx.db.withTenant(ctx.tenantId, async (tx) => {
    if (refunded.length > 0) await refund(tx, inArray(reservations.id, [...refunded]));
    if (kept.length === 0) return [];
    return tx
      .update(reservations)
      .set({ status: "settled", settledAt: ctx.now() })
      .where(and(inArray(reservations.id, [...kept]), eq(reservations.status, "reserved")))
      .returning({ deferred: reservations.deferredCharges });
  });
  for (const row of settled) ctx.usage.add(ctx.tenantId, row.deferred);
}

/** The call happened (or may have been billed): keep the charge, and record the usage no budget limits. */
export const settle = (ctx: TenantContext, reservationId: string) =>
  closeReservations(ctx, { kept: [reservationId], refunded: [] });

/** The call was definitively not billable (refused connection, bad key, 429): refund it. */
export const release = (ctx: TenantContext, reservationId: string) =>
  closeReservations(ctx, { kept: [], refunded: [reservationId] });

/** Refunds reservations whose call never settled (crashed instance); returns how many. */
export function sweepExpiredReservations(ctx: { db: TenantContext["db"]; now(): Date }): Promise<number> {
  return ctx.db.withSystem((tx) => refund(tx, sql`expires_at < ${ctx.now().toISOString()}::timestamptz`));
}
