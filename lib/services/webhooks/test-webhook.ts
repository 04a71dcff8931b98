import { and, count, eq, gte, sql } from "drizzle-orm";
import { webhookDeliveries } from "@/lib/db/schema";
import { writeAudit } from "@/lib/pipeline/audit";
import { assertScope, type TenantContext, type VerbArgs } from "@/lib/pipeline/context";
import { ServiceError } from "@/lib/pipeline/errors";
import { parseInput } from "@/lib/pipeline/validate";
import { TEST_EVENT } from "./events";
import { webhookIdInput, withOwnWebhook } from "./owned-webhook";
import { type DeliveryView, toDeliveryView } from "./webhook-view";

/** Test events one webhook may be sent per minute: enough to debug a receiver, too few to flood one. */
export const TEST_EVENTS_PER_MINUTE = 5;

/**
 * Queues a `webhook.test` event for one webhook (admin), delivered like any event (signed, retried). At most
 * TEST_EVENTS_PER_MINUTE a minute per webhook, counted under the webhook row's lock (race-free).
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
