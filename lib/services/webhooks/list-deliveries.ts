import { and, desc, eq } from "drizzle-orm";
import { z } from "zod";
import { webhookDeliveries } from "@/lib/db/schema";
import { assertScope, type TenantContext, type VerbArgs } from "@/lib/pipeline/context";
import { parseInput } from "@/lib/pipeline/validate";
import { withOwnWebhook } from "./owned-webhook";
import { type DeliveryView, toDeliveryView, toWebhookView, type WebhookView } from "./webhook-view";

export const listDeliveriesInput = z.strictObject({
  id: z.uuid(),
  limit: z.coerce.number().int().min(1).max(100).default(20).describe("Most recent deliveries (1–100)"),
});

/** A webhook's delivery log (admin), newest first: status, attempts, the receiver's last answer. */
export async function listDeliveries({
  ctx,
  input,
}: VerbArgs<TenantContext, typeof listDeliveriesInput>): Promise<{
  webhook: WebhookView;
  deliveries: DeliveryView[];
}> {
  assertScope(ctx, "admin");
  const { id, limit } = parseInput(listDeliveriesInput, input);
  return withOwnWebhook(ctx, id, async (tx, webhook) => {
    const rows = await tx
      .select()
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.tenantId, ctx.tenantId), eq(webhookDeliveries.webhookId, id)))
      .orderBy(desc(webhookDeliveries.createdAt))
      .limit(limit);
    return { webhook: toWebhookView(webhook), deliveries: rows.map(toDeliveryView) };
  });
}
