/**
 * A webhook's health, kept from its deliveries' attempts: failed attempts in a row and since when. A receiver
 * that failed PAUSE_AFTER_FAILURES attempts in a row over at least PAUSE_AFTER_FAILING_MINUTES is paused: no
 * event is queued for it and nothing is sent to it but test events (drizzle/0021_webhook_fairness.sql), and
 * its workspace's admins are told (the dashboard shows it, an audit row `webhook.pause`, an email when the
 * deployment sends mail: webhook-paused-email.ts). A success resets the count; a paused webhook's first
 * success (a test event, once its receiver is fixed) resumes it, with an audit row `webhook.resume`.
 */
import { eq, sql } from "drizzle-orm";
import type { Tx } from "@/lib/db";
import { webhooks } from "@/lib/db/schema";

/** Failed attempts in a row that pause a webhook, when they also span PAUSE_AFTER_FAILING_MINUTES. */
export const PAUSE_AFTER_FAILURES = 20;
/** A receiver down for a few minutes (a deploy) is not paused, however many attempts failed meanwhile. */
const PAUSE_AFTER_FAILING_MINUTES = 60;

export type HealthChange = "paused" | "resumed" | undefined;

/**
 * Counts one attempt's outcome on its webhook, under the webhook row's lock; says whether it paused or
 * resumed the webhook (once: the transition is decided on the locked row).
 */
export async function recordWebhookHealth(tx: Tx, webhookId: string, ok: boolean): Promise<HealthChange> {
  const [before] = await tx
    .select({ pausedAt: webhooks.pausedAt, failures: webhooks.consecutiveFailures })
    .from(webhooks)
    .where(eq(webhooks.id, webhookId))
    .for("update");
  if (!before) return undefined; // deleted meanwhile
  if (ok) {
    if (before.failures === 0 && before.pausedAt === null) return undefined;
    await tx
      .update(webhooks)
      .set({ consecutiveFailures: 0, failingSince: null, pausedAt: null })
      .where(eq(webhooks.id, webhookId));
    return before.pausedAt === null ? undefined : "resumed";
  }
  const [after] = await tx
    .update(webhooks)
    .set({
      consecutiveFailures: sql`${webhooks.consecutiveFailures} + 1`,
      failingSince: sql`coalesce(${webhooks.failingSince}, now())`,
      pausedAt: sql`case when ${webhooks.pausedAt} is null
        and ${webhooks.consecutiveFailures} + 1 >= ${PAUSE_AFTER_FAILURES}
        and ${webhooks.failingSince} <= now() - ${`${PAUSE_AFTER_FAILING_MINUTES} minutes`}::interval
        then now() else ${webhooks.pausedAt} end`,
    })
    .where(eq(webhooks.id, webhookId))
    .returning({ pausedAt: webhooks.pausedAt });
  return before.pausedAt === null && after?.pausedAt != null ? "paused" : undefined;
}
