import { eq } from "drizzle-orm";
import { webhooks } from "@/lib/db/schema";
import { writeAudit } from "@/lib/pipeline/audit";
import { assertScope, type TenantContext, type VerbArgs } from "@/lib/pipeline/context";
import { parseInput } from "@/lib/pipeline/validate";
import { webhookIdInput, withOwnWebhook } from "./owned-webhook";

/** Deletes a webhook (admin) and its delivery log; deliveries not yet sent are never sent. */
export async function deleteWebhook({
  ctx,
  input,
}: VerbArgs<TenantContext, typeof webhookIdInput>): Promise<{ deleted: true }> {
  assertScope(ctx, "admin");
  const { id } = parseInput(webhookIdInput, input);
  await withOwnWebhook(ctx, id, async (tx, webhook) => {
    await tx.delete(webhooks).where(eq(webhooks.id, id));
    await writeAudit(tx, {
      tenantId: ctx.tenantId,
      actor: ctx.actor,
      action: "webhook.delete",
      targetType: "webhook",
      targetId: id,
      details: { url: webhook.url },
    });
  });
  return { deleted: true };
}
