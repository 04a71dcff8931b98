/**
 * No workspace's webhooks can delay another's (issue 38), on every database target: claims take each
 * workspace's oldest due delivery in turn, the outbox's limits drop (and count) what a webhook or workspace
 * queues beyond them, key.invalid is sent once per key however often it is stored again and refused, and a
 * webhook whose receiver keeps failing is paused, its admins told, until a test event succeeds. All by counts:
 * rows queued, claims made, attempts answered.
 */
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, users, webhookDeliveries, webhooks } from "@/lib/db/schema";
import type { Platform, TenantContext } from "@/lib/pipeline/context";
import { markKeyInvalid } from "@/lib/pipeline/keys/mark-key-invalid";
import { setKey } from "@/lib/services/keys/set-key";
import { createTenant } from "@/lib/services/tenants/create-tenant";
import { createWebhook } from "@/lib/services/webhooks/create-webhook";
import { DEFAULT_DELIVERY_RUN, deliverWebhooks } from "@/lib/services/webhooks/deliver-webhooks";
import { claimDeliveries } from "@/lib/services/webhooks/delivery-lease";
import { listWebhooks } from "@/lib/services/webhooks/list-webhooks";
import {
  EVENTS_PER_MINUTE_PER_WEBHOOK,
  MAX_UNDONE_PER_WEBHOOK,
  MAX_UNDONE_PER_WORKSPACE,
} from "@/lib/services/webhooks/outbox-limits";
import { testWebhook } from "@/lib/services/webhooks/test-webhook";
import { PAUSE_AFTER_FAILURES } from "@/lib/services/webhooks/webhook-health";
import { databaseTargets, type TestDatabase } from "@/tests/support/database";
import { type MailServer, startMailServer } from "@/tests/support/mail-server";
import { systemCtx, tenantCtx, testPlatform } from "@/tests/support/platform";
import { startWebhookReceiver, type WebhookReceiver } from "@/tests/support/webhook-receiver";

describe.each(databaseTargets())("webhook fairness on $name", (target) => {
  let t: TestDatabase;
  let platform: Platform;
  let receiver: WebhookReceiver;
  let mail: MailServer;

  const workspace = async (name: string, ownerUserId?: string) =>
    tenantCtx(platform, (await createTenant({ ctx: systemCtx(platform), input: { name, ownerUserId } })).id);

  async function hooked(name: string, events = ["key.invalid"], ownerUserId?: string) {
    const ctx = await workspace(name, ownerUserId);
    const created = await createWebhook({ ctx, input: { url: receiver.url, events: events as never } });
    receiver.secret = created.secret;
    return { ctx, webhook: created };
  }

  /** `n` deliveries of a webhook as a backlog, written straight into the outbox (as a burst would leave it). */
  const backlog = (ctx: TenantContext, webhookId: string, n: number, values: { status?: "succeeded" } = {}) =>
    t.db.withSystem((tx) =>
      tx.insert(webhookDeliveries).values(
        Array.from({ length: n }, (_, i) => ({
          tenantId: ctx.tenantId,
          webhookId,
          eventType: "key.invalid",
          payload: { type: "key.invalid", timestamp: new Date().toISOString(), data: { i } },
          nextAttemptAt: sql`now() - interval '1 minute'`,
          ...values,
        })),
      ),
    );

  const deliveriesOf = (webhookId: string, eventType?: string) =>
    t.db.withSystem((tx) =>
      tx
        .select()
        .from(webhookDeliveries)
        .where(
          and(
            eq(webhookDeliveries.webhookId, webhookId),
            eventType ? eq(webhookDeliveries.eventType, eventType) : undefined,
          ),
        ),
    );

  const auditActions = (ctx: TenantContext, action: string) =>
    t.db.withSystem((tx) =>
      tx
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.tenantId, ctx.tenantId), eq(auditLog.action, action))),
    );

  const viewOf = async (ctx: TenantContext, id: string) =>
    (await listWebhooks({ ctx })).webhooks.find((webhook) => webhook.id === id);

  /** Nothing left due: a test's backlog must not be claimed by the next test. */
  const clearOutbox = () => t.db.withSystem((tx) => tx.delete(webhookDeliveries));

  beforeAll(async () => {
    t = await target.create();
    platform = testPlatform(t.db, { env: { SEARCHMUX_FETCH_ALLOWLIST: "127.0.0.1" } });
    receiver = await startWebhookReceiver();
    mail = await startMailServer({
      address: "127.0.0.1",
      port: 0,
      user: "mailer",
      password: "mail-password-1",
    });
  });

  afterAll(async () => {
    await mail?.close();
    await receiver?.close();
    await t?.cleanup();
  });

  it("claims another workspace's test event in the first claim, though the first workspace has 350 older ones due", async () => {
    await clearOutbox();
    const a = await hooked("busy");
    await backlog(a.ctx, a.webhook.id, 350);
    const b = await hooked("quiet");
    const queued = await testWebhook({ ctx: b.ctx, input: { id: b.webhook.id } });
    const claimed = await claimDeliveries(t.db, "fairness", { ...DEFAULT_DELIVERY_RUN, limit: 20 });
    expect(claimed.map((delivery) => delivery.id)).toContain(queued.id);
    const ofA = claimed.filter((delivery) => delivery.tenantId === a.ctx.tenantId);
    expect(ofA.length).toBeLessThanOrEqual(DEFAULT_DELIVERY_RUN.perWorkspace);
    await clearOutbox();
  });

  it("drops and counts an event over a webhook's limits, with one audit row, and refuses a test event there", async () => {
    const { ctx, webhook } = await hooked("capped");
    await backlog(ctx, webhook.id, MAX_UNDONE_PER_WEBHOOK);
    await setKey({ ctx, input: { provider: "brave", key: "brave-key-0001" } });
    await markKeyInvalid({ ctx, input: { provider: "brave" } });
    await setKey({ ctx, input: { provider: "exa", key: "exa-key-0002" } });
    await markKeyInvalid({ ctx, input: { provider: "exa" } });
    expect(await deliveriesOf(webhook.id)).toHaveLength(MAX_UNDONE_PER_WEBHOOK);
    expect(await viewOf(ctx, webhook.id)).toMatchObject({
      dropped_events: 2,
      last_dropped_at: expect.any(String),
    });
    const dropped = await auditActions(ctx, "webhook.events_dropped");
    expect(dropped).toHaveLength(1);
    expect(dropped[0]?.details).toMatchObject({
      actor: "system",
      event: "key.invalid",
      reason: "webhook_pending",
    });
    await expect(testWebhook({ ctx, input: { id: webhook.id } })).rejects.toMatchObject({
      code: "rate_limited",
      details: { reason: "webhook_pending" },
    });
    await clearOutbox();
  });

  it("counts real events against the webhook's events per minute, done ones included", async () => {
    const { ctx, webhook } = await hooked("busy-minute");
    await backlog(ctx, webhook.id, EVENTS_PER_MINUTE_PER_WEBHOOK, { status: "succeeded" });
    await setKey({ ctx, input: { provider: "brave", key: "brave-key-0003" } });
    await markKeyInvalid({ ctx, input: { provider: "brave" } });
    expect(await deliveriesOf(webhook.id)).toHaveLength(EVENTS_PER_MINUTE_PER_WEBHOOK);
    expect((await auditActions(ctx, "webhook.events_dropped"))[0]?.details).toMatchObject({
      reason: "webhook_rate",
    });
    await expect(testWebhook({ ctx, input: { id: webhook.id } })).rejects.toMatchObject({
      code: "rate_limited",
    });
    await clearOutbox();
  });

  it("drops an event over the workspace's limit, though its own webhook has room", async () => {
    const ctx = await workspace("full-workspace");
    const hooks = [];
    for (let i = 0; i < 4; i++)
      hooks.push(await createWebhook({ ctx, input: { url: receiver.url, events: ["key.invalid"] } }));
    const [fresh, ...full] = hooks;
    for (const [i, hook] of full.entries())
      await backlog(
        ctx,
        hook.id,
        Math.min(MAX_UNDONE_PER_WEBHOOK, MAX_UNDONE_PER_WORKSPACE - i * MAX_UNDONE_PER_WEBHOOK),
      );
    await setKey({ ctx, input: { provider: "brave", key: "brave-key-0004" } });
    await markKeyInvalid({ ctx, input: { provider: "brave" } });
    expect(await deliveriesOf(fresh?.id ?? "")).toEqual([]);
    expect(await viewOf(ctx, fresh?.id ?? "")).toMatchObject({ dropped_events: 1 });
    await clearOutbox();
  });

  it("sends key.invalid once per key: the same key stored again and refused again is not reported again", async () => {
    const { ctx, webhook } = await hooked("debounce");
    const storeAndRefuse = async (key: string) => {
      await setKey({ ctx, input: { provider: "brave", key } });
      await markKeyInvalid({ ctx, input: { provider: "brave" } });
    };
    await storeAndRefuse("brave-refused-key-1");
    await storeAndRefuse("brave-refused-key-1");
    expect(await deliveriesOf(webhook.id, "key.invalid")).toHaveLength(1);
    // Two instances refusing it at once report it no more.
    await setKey({ ctx, input: { provider: "brave", key: "brave-refused-key-1" } });
    await Promise.all([
      markKeyInvalid({ ctx, input: { provider: "brave" } }),
      markKeyInvalid({ ctx, input: { provider: "brave" } }),
    ]);
    expect(await deliveriesOf(webhook.id, "key.invalid")).toHaveLength(1);
    // Another key is another report.
    await storeAndRefuse("brave-refused-key-2");
    expect(await deliveriesOf(webhook.id, "key.invalid")).toHaveLength(2);
    await clearOutbox();
  });

  it(`pauses a webhook after ${PAUSE_AFTER_FAILURES} failed attempts over an hour, tells its admins, and resumes on a test's success`, async () => {
    await clearOutbox();
    const [owner] = await t.db.withSystem((tx) =>
      tx.insert(users).values({ email: "owner@failing.test" }).returning({ id: users.id }),
    );
    const { ctx, webhook } = await hooked("failing", ["key.invalid"], owner?.id);
    // The deployment sends mail: the owner is told of the pause.
    const mailing = {
      ...platform,
      env: { ...platform.env, SMTP_URL: mail.url, EMAIL_FROM: "Searchmux <alerts@smx.test>" },
    };
    await backlog(ctx, webhook.id, PAUSE_AFTER_FAILURES);
    receiver.answers.push(...Array.from({ length: PAUSE_AFTER_FAILURES }, () => 500));
    const run = { ...DEFAULT_DELIVERY_RUN, batch: PAUSE_AFTER_FAILURES, perWorkspace: PAUSE_AFTER_FAILURES };
    const half = PAUSE_AFTER_FAILURES / 2;
    expect(await deliverWebhooks(mailing, { ...run, batch: half, perWorkspace: half })).toBe(half);
    // The failures so far began over an hour ago: a receiver down that long.
    await t.db.withSystem((tx) =>
      tx
        .update(webhooks)
        .set({ failingSince: sql`now() - interval '2 hours'` })
        .where(eq(webhooks.id, webhook.id)),
    );
    expect(await viewOf(ctx, webhook.id)).toMatchObject({ paused_at: null, consecutive_failures: half });
    expect(await deliverWebhooks(mailing, run)).toBe(half);
    expect(await viewOf(ctx, webhook.id)).toMatchObject({
      paused_at: expect.any(String),
      consecutive_failures: PAUSE_AFTER_FAILURES,
    });
    expect(await auditActions(ctx, "webhook.pause")).toHaveLength(1);
    const told = await mail.messages();
    expect(
      told.map((message) => [message.to && "text" in message.to ? message.to.text : "", message.subject]),
    ).toEqual([["owner@failing.test", "A Searchmux webhook was paused"]]);
    expect(told[0]?.text).toContain(new URL(receiver.url).host);

    // Paused: a new event is not queued, and the retries due are not sent.
    await t.db.withSystem((tx) =>
      tx
        .update(webhookDeliveries)
        .set({ nextAttemptAt: sql`now()` })
        .where(eq(webhookDeliveries.status, "pending")),
    );
    await setKey({ ctx, input: { provider: "brave", key: "brave-key-0005" } });
    await markKeyInvalid({ ctx, input: { provider: "brave" } });
    expect(await viewOf(ctx, webhook.id)).toMatchObject({ dropped_events: 1 });
    const before = receiver.received.length;
    expect(await deliverWebhooks(platform, run)).toBe(0);

    // A test event is sent; its success resumes the webhook.
    const queued = await testWebhook({ ctx, input: { id: webhook.id } });
    expect(await deliverWebhooks(platform, run)).toBe(1);
    expect(receiver.received.slice(before).map((r) => r.id)).toEqual([queued.message_id]);
    expect(await viewOf(ctx, webhook.id)).toMatchObject({ paused_at: null, consecutive_failures: 0 });
    expect(await auditActions(ctx, "webhook.resume")).toHaveLength(1);
    await clearOutbox();
  });
});
