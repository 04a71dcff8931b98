import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Tx } from "@/lib/db";
import { webhooks } from "@/lib/db/schema";
import type { TenantContext } from "@/lib/pipeline/context";
import { ServiceError } from "@/lib/pipeline/errors";

export const webhookIdInput = z.strictObject({ id: z.uuid() });

type WebhookRow = typeof webhooks.$inferSelect;

/**
 * Runs `fn` on the tenant's webhook `id`, locked for update, in the tenant's transaction; another workspace's
 * webhook, or none, is not found (404) alike. The workspace's outbox lock is taken first, as events take it
 * before any webhook row (drizzle/0021_webhook_fairness.sql): the two orders never cross, and what `fn`
 * counts of the outbox holds until it commits.
 */
export async function withOwnWebhook<T>(
  ctx: TenantContext,
  id: string,
  fn: (tx: Tx, webhook: WebhookRow) => Promise<T>,
): Promise<T> {
  const result = await ctx.db.withTenant(ctx.tenantId, async (tx) => {
    await tx.execute(sql`select lock_webhook_outbox(${ctx.tenantId})`);
    const [webhook] = await tx
      .select()
      .from(webhooks)
      .where(and(eq(webhooks.tenantId, ctx.tenantId), eq(webhooks.id, id)))
      .for("update");
    return webhook && { value: await fn(tx, webhook) };
  });
  if (!result) throw new ServiceError("not_found", "webhook not found");
  return result.value;
}
