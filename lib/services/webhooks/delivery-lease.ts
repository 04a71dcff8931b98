/**
 * The outbox's lease, like research jobs' (research/job-lease.ts): a sender claims due deliveries (pending
 * ones whose next attempt is due, and ones whose sender's lease lapsed: its instance died mid-send) by
 * writing its name and a lease expiry, counting the attempt; it records the outcome only while the lease is
 * its own. Times are the database's clock. At least once: a sender that dies after the receiver answered
 * but before recording it leaves the delivery to be sent again, with the same `webhook-id`.
 *
 * Claims are fair across workspaces: one workspace's backlog never holds the sender while another's
 * delivery waits. A claim takes each workspace's oldest due delivery first (the workspaces in the order of
 * their oldest), then each one's second, and so on, at most `perWorkspace` of one workspace.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Database } from "@/lib/db";
import { webhookDeliveries, webhooks } from "@/lib/db/schema";
import { writeAudit } from "@/lib/pipeline/audit";
import { TEST_EVENT } from "./events";
import { type HealthChange, PAUSE_AFTER_FAILURES, recordWebhookHealth } from "./webhook-health";

/**
 * Waits after each failed attempt, in order: 5 s, 30 s, 2 min, 10 min, 1 h, 3 h, 6 h; the attempt after the
 * last wait is the last (8 in all, over about 10 hours), after which the delivery is failed.
 */
const RETRY_DELAYS_SECONDS = [5, 30, 120, 600, 3_600, 10_800, 21_600] as const;

const leaseUntil = (leaseMs: number) => sql`now() + ${`${leaseMs} milliseconds`}::interval`;

export type ClaimedDelivery = typeof webhookDeliveries.$inferSelect & {
  webhook: typeof webhooks.$inferSelect;
};

/** Due: pending and its next attempt's time has come, or its sender's lease lapsed (the instance died). */
const isDue = (alias: string) =>
  sql.raw(`((${alias}.status = 'pending' AND ${alias}.next_attempt_at <= now())
    OR (${alias}.status = 'delivering' AND ${alias}.lease_expires_at < now()))`);

/**
 * Claims up to `limit` due deliveries for `owner`, each with its webhook: round-robin over the workspaces
 * (at most `perWorkspace` of one), a paused webhook's only when they are test events. One statement picks,
 * locks and claims them: a row another sender holds is skipped (SKIP LOCKED) and one it claimed meanwhile
 * is due no more when locked (the condition is checked again on the row's latest version).
 */
export async function claimDeliveries(
  db: Database,
  owner: string,
  { limit, perWorkspace, leaseMs }: { limit: number; perWorkspace: number; leaseMs: number },
): Promise<ClaimedDelivery[]> {
  return db.withSystem(async (tx) => {
    const claimedIds = await tx.execute(sql`
      WITH due AS (
        SELECT d.id, d.tenant_id, d.next_attempt_at
          FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
         WHERE ${isDue("d")} AND (w.paused_at IS NULL OR d.event_type = ${TEST_EVENT})
      ), ranked AS (
        SELECT id,
               row_number() OVER (PARTITION BY tenant_id ORDER BY next_attempt_at, id) AS turn,
               min(next_attempt_at) OVER (PARTITION BY tenant_id) AS workspace_oldest
          FROM due
      ), chosen AS (
        SELECT id FROM ranked WHERE turn <= ${perWorkspace}
         ORDER BY turn, workspace_oldest, id LIMIT ${limit}
      ), locked AS (
        SELECT c.id FROM webhook_deliveries c
         WHERE c.id IN (SELECT id FROM chosen) AND ${isDue("c")}
           FOR UPDATE SKIP LOCKED
      )
      UPDATE webhook_deliveries
         SET status = 'delivering', lease_owner = ${owner}, lease_expires_at = ${leaseUntil(leaseMs)},
             attempts = attempts + 1, last_attempt_at = now()
       WHERE id IN (SELECT id FROM locked)
      RETURNING id`);
    const ids = (claimedIds as unknown as { rows: Array<{ id: string }> }).rows.map((row) => row.id);
    if (ids.length === 0) return [];
    const claimed = await tx
      .select()
      .from(webhookDeliveries)
      .innerJoin(webhooks, eq(webhooks.id, webhookDeliveries.webhookId))
      .where(inArray(webhookDeliveries.id, ids));
    return claimed.map((row) => ({ ...row.webhook_deliveries, webhook: row.webhooks }));
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
 * attempt (RETRY_DELAYS_SECONDS) or, after the last, fails it. With it, in the same transaction, the
 * webhook's health (webhook-health.ts) and the audit row of a pause or resume it caused. `recorded` is false
 * when the lease was lost meanwhile (nothing is changed then).
 */
export async function recordAttempt(
  db: Database,
  delivery: { id: string; attempts: number; tenantId: string; webhookId: string },
  owner: string,
  outcome: AttemptOutcome,
): Promise<{ recorded: boolean; health: HealthChange }> {
  const delay = RETRY_DELAYS_SECONDS[delivery.attempts - 1];
  const next = outcome.ok
    ? ({ status: "succeeded", deliveredAt: sql`now()` } as const)
    : delay === undefined
      ? ({ status: "failed" } as const)
      : ({ status: "pending", nextAttemptAt: sql`now() + ${`${delay} seconds`}::interval` } as const);
  return db.withSystem(async (tx) => {
    // The webhook's row first, then the delivery's: the order deleting a webhook takes them in (its row, then
    // its deliveries by the cascade), so the two never deadlock.
    await tx
      .select({ id: webhooks.id })
      .from(webhooks)
      .where(eq(webhooks.id, delivery.webhookId))
      .for("update");
    const rows = await tx
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
      .returning({ id: webhookDeliveries.id });
    if (rows.length === 0) return { recorded: false, health: undefined };
    const health = await recordWebhookHealth(tx, delivery.webhookId, outcome.ok);
    if (health !== undefined) {
      await writeAudit(tx, {
        tenantId: delivery.tenantId,
        actor: { kind: "system" },
        action: health === "paused" ? "webhook.pause" : "webhook.resume",
        targetType: "webhook",
        targetId: delivery.webhookId,
        details:
          health === "paused"
            ? {
                reason: `${PAUSE_AFTER_FAILURES} failed attempts in a row`,
                last_error: outcome.error ?? null,
              }
            : {},
      });
    }
    return { recorded: true, health };
  });
}
