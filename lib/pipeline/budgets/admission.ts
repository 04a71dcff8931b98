/**
 * Budget admission of provider calls, never read-then-write; for each call, all or nothing:
 *
 * 1. A reservation row is inserted under the caller's idempotency key (a replay of the key is admitted
 *    again without a second charge).
 * 2. Every counter a budget limits — of the provider and `*`, requests (1) and usd (the call's cost), for
 *    the day, the month(s) and the lifetime — is charged by an INSERT … ON CONFLICT DO UPDATE … WHERE,
 *    only if it stays within its hard limit. A call that draws on the operator (its key or model) also
 *    charges the operator's counters, which its quotas limit the same way (operator-quota.ts). Postgres
 *    re-checks the WHERE on the locked, latest row version, so concurrent admissions can never overshoot.
 *    The counters no budget limits only record usage: they are added when the call settles, in batches
 *    (usage-sink.ts), so they never make concurrent admissions wait on each other's row locks.
 * 3. If any budgeted counter refused, the call's reservation and charges are undone, the exhausted
 *    budgets are recorded (once per period), and the caller learns which they are and when they reset.
 *
 * All of it runs in the database function admit_fanout (drizzle/0010_admit_fanout.sql): a whole
 * fan-out is admitted in one round trip, which matters once the database is a network hop away. A fan-out
 * that fits every limit it touches (no replay, no limit reached or soft limit crossed) is admitted all at
 * once, in a few statements; any other goes call by call (admit_calls, drizzle/0007_admit_calls.sql), with
 * the same outcome either way.
 *
 * After the call the reservation is settled (kept) or released (refunded) — see settle/release below.
 * Counters are kept for every settled call, budgeted or not; they are also the usage figures.
 */
import { sql } from "drizzle-orm";
import { queryRows, type Tx } from "@/lib/db";
import type { Charge } from "@/lib/db/schema";
import type {
  AdmissionRequest,
  AdmissionResult,
  Admissions,
  ClosedReservations,
  Period,
  TenantScope,
} from "@/lib/pipeline/capabilities";
import { operatorQuotaLimits } from "./operator-quota";
import { periodKey, periodResetsAt } from "./periods";

/** Reservations left unsettled this long (a crashed call) are refunded by the sweep. */
const RESERVATION_TTL_SECONDS = 600;

/** What admit_fanout answers for one call. */
type CallAdmission =
  | { id: string; replayed: boolean }
  | {
      exhausted: Array<{
        budget_id: string | null;
        provider: string;
        metric: "requests" | "usd";
        period: Period;
        limit: number;
        anchor_day: number;
      }>;
    };

const ANCHOR_DAYS = Array.from({ length: 31 }, (_, i) => i + 1);

/**
 * Admits the provider calls of one tool call (a fan-out asks for all of them at once) in one statement,
 * one round trip: the database function admit_fanout (drizzle/0010_admit_fanout.sql) applies the rules
 * above to each call, all or nothing per call, so a refused provider leaves the others' charges untouched.
 * Results come back in the order of `requests`.
 */
export async function admitAll(ctx: TenantScope, requests: AdmissionRequest[]): Promise<AdmissionResult[]> {
  if (requests.length === 0) return [];
  const at = ctx.now();
  const calls = requests.map((r) => ({
    key: r.idempotencyKey,
    provider: r.provider,
    cost: r.costMicros,
    operator: r.drawsOnOperator ?? false,
  }));
  const months = Object.fromEntries(ANCHOR_DAYS.map((day) => [day, periodKey("month", at, day)]));
  const quotas = operatorQuotaLimits(ctx.env).map((q) => ({
    metric: q.metric,
    period: q.period,
    limit: q.hardLimit,
  }));
  const expires = new Date(at.getTime() + RESERVATION_TTL_SECONDS * 1000);
  const [row] = await ctx.db.callFunction<{ admitted: CallAdmission[] }>(sql`
    select admit_fanout(${ctx.tenantId}::uuid, ${JSON.stringify(calls)}::jsonb, ${periodKey("day", at)},
                       ${JSON.stringify(months)}::jsonb, ${JSON.stringify(quotas)}::jsonb,
                       ${expires.toISOString()}::timestamptz) as admitted`);
  const admitted = row?.admitted ?? [];
  if (admitted.length !== requests.length)
    throw new Error("admission answered for a different number of calls");
  return admitted.map((answer): AdmissionResult => {
    if ("id" in answer) return { ok: true, reservationId: answer.id, replayed: answer.replayed };
    return {
      ok: false,
      exhausted: answer.exhausted.map((b) => ({
        kind: b.budget_id === null ? "operator_quota" : "budget",
        budgetId: b.budget_id,
        // An operator quota counts every provider.
        provider: b.budget_id === null ? "*" : b.provider,
        metric: b.metric,
        period: b.period,
        limit: Number(b.limit),
        resetsAt: periodResetsAt(b.period, at, b.anchor_day),
      })),
    };
  });
}

export async function admit(ctx: TenantScope, request: AdmissionRequest): Promise<AdmissionResult> {
  const [result] = await admitAll(ctx, [request]);
  if (!result) throw new Error("admission answered nothing");
  return result;
}

/**
 * Closes a tool call's reservations in one statement, one round trip (settle_calls; a second one first when
 * a call priced by use is trimmed to what it cost): `kept` calls happened
 * (or may have been billed), so their charges stay and the usage no budget limits is recorded; `refunded`
 * calls were definitively not billable (refused connection, bad key, 429), so their charges are subtracted
 * again.
 */
export async function closeReservations(
  ctx: TenantScope,
  { kept, refunded, trimmed = [] }: ClosedReservations,
): Promise<void> {
  if (kept.length === 0 && refunded.length === 0) return;
  // Calls priced by use that cost less than reserved are trimmed first (trim_reservations, drizzle/0018).
  if (trimmed.length > 0) {
    const trims = trimmed.map(({ id, costMicros }) => ({ id, amount: Math.round(costMicros) }));
    await ctx.db.callFunction(
      sql`select trim_reservations(${ctx.tenantId}::uuid, ${JSON.stringify(trims)}::jsonb)`,
    );
  }
  const [row] = await ctx.db.callFunction<{ deferred: Charge[][] }>(sql`
    select settle_calls(${ctx.tenantId}::uuid, ${uuidArray(kept)}, ${uuidArray(refunded)}) as deferred`);
  for (const charges of row?.deferred ?? []) ctx.usage.add(ctx.tenantId, charges);
}

const uuidArray = (ids: readonly string[]) => sql`${`{${ids.join(",")}}`}::uuid[]`;

/** A tenant's budgets, counters and reservations in the database. */
export const databaseAdmissions: Admissions = { admitAll, close: closeReservations };

/** The call happened (or may have been billed): keep the charge, and record the usage no budget limits. */
export const settle = (ctx: TenantScope, reservationId: string) =>
  closeReservations(ctx, { kept: [reservationId], refunded: [] });

/** The call was definitively not billable (refused connection, bad key, 429): refund it. */
export const release = (ctx: TenantScope, reservationId: string) =>
  closeReservations(ctx, { kept: [], refunded: [reservationId] });

/** Refunds, in `tx` (a system transaction), reservations whose call never settled by `now`; returns how many. */
export async function refundExpiredReservations(tx: Tx, now: Date): Promise<number> {
  const [row] = await queryRows<{ released: number }>(
    tx,
    sql`select release_reservations(array(
          select id from reservations where status = 'reserved' and expires_at < ${now.toISOString()}::timestamptz
        )) as released`,
  );
  return row?.released ?? 0;
}

/** Refunds reservations whose call never settled (crashed instance); returns how many. */
export function sweepExpiredReservations(ctx: { db: TenantScope["db"]; now(): Date }): Promise<number> {
  return ctx.db.withSystem((tx) => refundExpiredReservations(tx, ctx.now()));
}
