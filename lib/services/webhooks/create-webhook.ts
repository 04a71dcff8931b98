import { randomUUID } from "node:crypto";
import { count, eq } from "drizzle-orm";
import { z } from "zod";
import { tenants, webhooks } from "@/lib/db/schema";
import { writeAudit } from "@/lib/pipeline/audit";
import { actingUserId, assertScope, type TenantContext, type VerbArgs } from "@/lib/pipeline/context";
import { ServiceError } from "@/lib/pipeline/errors";
import { sealWebhookSecret } from "@/lib/pipeline/keys/key-encryption";
import { parseInput } from "@/lib/pipeline/validate";
import { checkEndpoint } from "./endpoint-policy";
import { webhookEventsField } from "./events";
import { newWebhookSecret } from "./signature";
import { toWebhookView, type WebhookView } from "./webhook-view";

/** Webhooks one workspace may have: each event is sent to every one of them. */
export const MAX_WEBHOOKS = 10;

export const createWebhookInput = z.strictObject({
  url: z.string().trim().min(1).max(2_048).describe("Where deliveries are POSTed (https)"),
  events: webhookEventsField,
});

/**
 * Registers a webhook (admin): its URL checked (endpoint-policy.ts), a new signing secret sealed like provider
 * keys and returned this once, at most MAX_WEBHOOKS per workspace (counted under the tenant row's lock, so
 * concurrent creations cannot pass it together).
 */
export async function createWebhook({
  ctx,
  input,
}: VerbArgs<TenantContext, typeof createWebhookInput>): Promise<WebhookView & { secret: string }> {
  assertScope(ctx, "admin");
  const parsed = parseInput(createWebhookInput, input);
  const url = await checkEndpoint(parsed.url, ctx.env);
  const secret = newWebhookSecret();
  const row = await ctx.db.withTenant(ctx.tenantId, async (tx) => {
    await tx
      .select({ id: tenants.id })
      .from(tenants)
      .where(eq(tenants.id, ctx.tenantId))
      .for("no key update");
    const [existing] = await tx
      .select({ n: count() })
      .from(webhooks)
      .where(eq(webhooks.tenantId, ctx.tenantId));
    if ((existing?.n ?? 0) >= MAX_WEBHOOKS) {
      throw new ServiceError(
        "conflict",
        `this workspace already has ${MAX_WEBHOOKS} webhooks, the most allowed; delete one first`,
        { limit: MAX_WEBHOOKS },
      );
    }
    const id = randomUUID();
    const sealed = sealWebhookSecret(ctx.keyring, secret, { tenantId: ctx.tenantId, rowId: id });
    const [inserted] = await tx
      .insert(webhooks)
      .values({
        id,
        tenantId: ctx.tenantId,
        url,
        events: parsed.events,
        ...sealed,
        createdBy: actingUserId(ctx.actor),
      })
      .returning();
    await writeAudit(tx, {
      tenantId: ctx.tenantId,
      actor: ctx.actor,
      action: "webhook.create",
      targetType: "webhook",
      targetId: id,
      details: { url, events: parsed.events },
    });
    return inserted;
  });
  if (!row) throw new Error("unreachable: insert returned no row");
  return { ...toWebhookView(row), secret };
}
