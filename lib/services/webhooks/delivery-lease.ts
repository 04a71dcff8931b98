/**
 * The outbox's lease, like research jobs' (research/job-lease.ts): a sender claims due deliveries (pending
 * ones whose next attempt is due, and ones whose sender's lease lapsed: its instance died mid-send) by
 * writing its name and a lease expiry, counting the attempt; it records the outcome only while the lease is
 * its own. Times are the database's clock. At least once: a sender that dies after the receiver answered
 * but before recording it leaves the delivery to be sent again, with the same `webhook-id`.
 */
import { and, asc, eq, inArray, lt, lte, or, sql } from "drizzle-orm";
import type { Database } from "@/lib/db";
import { webhookDeliveries, webhooks } from "@/lib/db/schema";

/**
 * Waits after each failed attempt, in order: 5 s, 30 s, 2 min, 10 min, 1 h, 3 h, 6 h; the attempt after the
 * last wait is the last (8 in all, over about 10 hours), after which the delivery is failed.
 */
const RETRY_DELAYS_SECONDS = [5, 30, 120, 600, 3_600, 10_800, 21_600] as const;

const leaseUntil = (leaseMs: number) => sql`now() + ${`${leaseMs} milliseconds`}::interval`;

export type ClaimedDelivery = typeof webhookDeliveries.$inferSelect & {
  webhook: typeof webhooks.$inferSelect;
};

/** Claims up to `limit` due deliveries for `owner`, oldest due first, each with its webhook. */
export async function claimDeliveries(
  db: Database,
  owner: string,
  { limit, leaseMs }: { limit: number; leaseMs: number },
): Promise<ClaimedDelivery[]> {
  return db.withSystem(async (tx) => {
    const due = await tx
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(
        or(
          and(eq(webhookDeliveries.status, "pending"), lte(webhookDeliveries.nextAttemptAt, sql`now()`)),
          and(eq(webhookDeliveries.status, "delivering"), lt(webhookDeliveries.leaseExpiresAt, sql`now()`)),
        ),
      )
      .orderBy(asc(webhookDeliveries.nextAttemptAt))
      .limit(limit)
      .for("update", { skipLocked: true });
    if (due.length === 0) return [];
    const claimed = await tx
      .update(webhookDeliveries)
      .set({
        status: "delivering",
        leaseOwner: owner,
        leaseExpiresAt: leaseUntil(leaseMs),
        attempts: sql`${webhookDeliveries.attempts} + 1`,
        lastAttemptAt: sql`now()`,
      })
      .where(
        inArray(
          webhookDeliveries.id,
          due.map((row) => row.id),
        ),
      )
      .returning();
    const hooks = await tx
      .select()
      .from(webhooks)
      .where(inArray(webhooks.id, [...new Set(claimed.map((row) => row.webhookId))]));
    const byId = new Map(hooks.map((hook) => [hook.id, hook]));
    return claimed.flatMap((row) => {
      const webhook = byId.get(row.webhookId);
      return webhook ? [{ ...row, webhook }] : [];
    });
  });
}

export interface AttemptOutcome {
  ok: boolean;
  status?: number;
  error?: string;
  response?: string;
}

/**
 * Records an attempt while the lease is `owner`'s: a success ends the delivery; a failure schedules the next
 * attempt (RETRY_DELAYS_SECONDS) or, after the last, fails it. False when the lease was lost meanwhile.
 */
export async function recordAttempt(
  db: Database,
  delivery: { id: string; attempts: number },
  owner: string,
  outcome: AttemptOutcome,
): Promise<boolean> {
  const delay = RETRY_DELAYS_SECONDS[delivery.attempts - 1];
  const next = outcome.ok
    ? ({ status: "succeeded", deliveredAt: sql`now()` } as const)
    : delay === undefined
      ? ({ status: "failed" } as const)
      : ({ status: "pending", nextAttemptAt: sql`now() + ${`${delay} seconds`}::interval` } as const);
  const rows = await db.withSystem((tx) =>
    tx
      .update(webhookDeliveries)
      .set({
        ...next,
        leaseOwner: null,
        leaseExpiresAt: null,
        lastStatus: outcome.status ?? null,
        lastError: outcome.error ?? null,
        lastResponse: outcome.response ?? null,
      })
      .where(
        and(
          eq(webhookDeliveries.id, delivery.id),
          eq(webhookDeliveries.leaseOwner, owner),
          eq(webhookDeliveries.status, "delivering"),
        ),
      )
      .returning({ id: webhookDeliveries.id }),
  );
  return rows.length > 0;
}
