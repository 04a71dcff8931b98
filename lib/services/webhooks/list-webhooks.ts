import { desc, eq } from "drizzle-orm";
import { webhooks } from "@/lib/db/schema";
import { assertScope, type TenantContext } from "@/lib/pipeline/context";
import { toWebhookView, type WebhookView } from "./webhook-view";

/** The workspace's webhooks (admin), newest first; secrets are never listed. */
export async function listWebhooks({ ctx }: { ctx: TenantContext }): Promise<{ webhooks: WebhookView[] }> {
  assertScope(ctx, "admin");
  const rows = await ctx.db.withTenant(ctx.tenantId, (tx) =>
    tx.select().from(webhooks).where(eq(webhooks.tenantId, ctx.tenantId)).orderBy(desc(webhooks.createdAt)),
  );
  return { webhooks: rows.map(toWebhookView) };
}
