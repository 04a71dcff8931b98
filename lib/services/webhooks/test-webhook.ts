import { and, count, eq, gte, sql } from "drizzle-orm";
import { webhookDeliveries } from "@/lib/db/schema";
import { writeAudit } from "@/lib/pipeline/audit";
import { assertScope, type TenantContext, type VerbArgs } from "@/lib/pipeline/context";
import { ServiceError } from "@/lib/pipeline/errors";
import { parseInput } from "@/lib/pipeline/validate";
import { TEST_EVENT } from "./events";
import { OUTBOX_REFUSAL_MESSAGES } from "./outbox-limits";
import { webhookIdInput, withOwnWebhook } from "./owned-webhook";
import { type DeliveryView, toDeliveryView } from "./webhook-view";

/** Test events one webhook may be sent per minute: enough to debug a receiver, too few to flood one. */
export const TEST_EVENTS_PER_MINUTE = 5;

/**
 * Queues a `webhook.test` event for one webhook (admin), delivered like any event (signed, retried), and to a
 * paused webhook too (its success resumes it: webhook-health.ts). At most TEST_EVENTS_PER_MINUTE a minute
 * per webhook, and within the limits every event is held to (webhook_event_refusal: real events count
 * against the same per-webhook limit), counted under the workspace's outbox lock (race-free).
 */
export async function testWebhook({
  ctx,
  input,
}: VerbArgs<TenantContext, typeof webhookIdInput>): Promise<DeliveryView> {
  assertScope(ctx, "admin");
  const { id } = parseInput(webhookIdInput, input);
  return withOwnWebhook(ctx, id, async (tx) => {
    const [recent] = await tx
      .select({ n: count() })
      .from(webhookDeliveries)
      .where(
        and(
          eq(webhookDeliveries.tenantId, ctx.tenantId),
          eq(webhookDeliveries.webhookId, id),
          eq(webhookDeliveries.eventType, TEST_EVENT),
          gte(webhookDeliveries.createdAt, sql`now() - interval '1 minute'`),
        ),
      );
    if ((recent?.n ?? 0) >= TEST_EVENTS_PER_MINUTE) {
      throw new ServiceError(
        "rate_limited",
        `at most ${TEST_EVENTS_PER_MINUTE} test events a minute per webhook`,
        { limit: TEST_EVENTS_PER_MINUTE },
        60,
      );
    }
    const refusal = await tx.execute(sql`select webhook_event_refusal(${id}, true) as reason`);
    const reason = (refusal as unknown as { rows: Array<{ reason: string | null }> }).rows[0]?.reason;
    if (reason) {
      // Deliveries end within a minute or are retried later: a minute is when a retry may pass.
      const message = OUTBOX_REFUSAL_MESSAGES[reason as keyof typeof OUTBOX_REFUSAL_MESSAGES];
      throw new ServiceError("rate_limited", message, { reason }, 60);
    }
    const [delivery] = await tx
      .insert(webhookDeliveries)
      .values({
        tenantId: ctx.tenantId,
        webhookId: id,
        eventType: TEST_EVENT,
        payload: {
          type: TEST_EVENT,
          timestamp: ctx.now().toISOString(),
          data: { webhook_id: id, message: "a test event sent from Searchmux" },
        },
      })
      .returning();
    if (!delivery) throw new Error("unreachable: insert returned no row");
    await writeAudit(tx, {
      tenantId: ctx.tenantId,
      actor: ctx.actor,
      action: "webhook.test",
      targetType: "webhook",
      targetId: id,
    });
    return toDeliveryView(delivery);
  });
}
