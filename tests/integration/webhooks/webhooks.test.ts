/**
 * Webhooks end to end in process, on every database target: registration (the secret shown once, endpoints
 * refused at save), signed deliveries to a receiver that verifies them, a retry after the receiver fails, the
 * endpoint checked again at delivery, events written in the transaction of their change, per-workspace
 * limits under concurrency, and isolation between workspaces.
 */
import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, researchJobs, webhookDeliveries, webhooks } from "@/lib/db/schema";
import { redactText } from "@/lib/observability/redact";
import { admit, settle } from "@/lib/pipeline/budgets/admission";
import type { Platform, TenantContext } from "@/lib/pipeline/context";
import { ServiceError } from "@/lib/pipeline/errors";
import { markKeyInvalid } from "@/lib/pipeline/keys/mark-key-invalid";
import { setBudget } from "@/lib/services/budgets/set-budget";
import { setKey } from "@/lib/services/keys/set-key";
import { claimJob, writeJob } from "@/lib/services/research/job-lease";
import { createTenant } from "@/lib/services/tenants/create-tenant";
import { createWebhook, MAX_WEBHOOKS } from "@/lib/services/webhooks/create-webhook";
import { deleteWebhook } from "@/lib/services/webhooks/delete-webhook";
import { DEFAULT_DELIVERY_RUN, deliverWebhooks } from "@/lib/services/webhooks/deliver-webhooks";
import { listDeliveries } from "@/lib/services/webhooks/list-deliveries";
import { listWebhooks } from "@/lib/services/webhooks/list-webhooks";
import { TEST_EVENTS_PER_MINUTE, testWebhook } from "@/lib/services/webhooks/test-webhook";
import { databaseTargets, type TestDatabase } from "@/tests/support/database";
import { systemCtx, tenantCtx, testPlatform } from "@/tests/support/platform";
import { startWebhookReceiver, type WebhookReceiver } from "@/tests/support/webhook-receiver";

const ALLOW_LOOPBACK = { SEARCHMUX_FETCH_ALLOWLIST: "127.0.0.1" };

describe.each(databaseTargets())("webhooks on $name", (target) => {
  let t: TestDatabase;
  let platform: Platform;
  let receiver: WebhookReceiver;

  const workspace = async (name: string, scopes?: TenantContext["scopes"]) =>
    tenantCtx(platform, (await createTenant({ ctx: systemCtx(platform), input: { name } })).id, scopes);

  /** A workspace with a webhook at the receiver for `events`; the receiver verifies with its secret. */
  async function hooked(name: string, events = ["research.failed", "key.invalid", "budget.soft_limit"]) {
    const ctx = await workspace(name);
    const created = await createWebhook({ ctx, input: { url: receiver.url, events: events as never } });
    receiver.secret = created.secret;
    return { ctx, webhook: created };
  }

  const deliveriesOf = (webhookId: string) =>
    t.db.withSystem((tx) =>
      tx.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, webhookId)),
    );

  /** Makes every pending delivery due now: the backoff's wait, passed. */
  const dueNow = () =>
    t.db.withSystem((tx) =>
      tx
        .update(webhookDeliveries)
        .set({ nextAttemptAt: sql`now()` })
        .where(eq(webhookDeliveries.status, "pending")),
    );

  beforeAll(async () => {
    t = await target.create();
    platform = testPlatform(t.db, { env: ALLOW_LOOPBACK });
    receiver = await startWebhookReceiver();
  });

  afterAll(async () => {
    await receiver?.close();
    await t?.cleanup();
  });

  it("shows the secret once: never in the list, the audit row or a log line", async () => {
    const ctx = await workspace("secret");
    const created = await createWebhook({ ctx, input: { url: receiver.url, events: ["crawl.completed"] } });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(created.secret.slice(6), "base64")).toHaveLength(32);
    const listed = await listWebhooks({ ctx });
    expect(listed.webhooks).toEqual([
      {
        id: created.id,
        url: receiver.url,
        events: ["crawl.completed"],
        created_at: expect.any(String),
        paused_at: null,
        consecutive_failures: 0,
        dropped_events: 0,
        last_dropped_at: null,
      },
    ]);
    const stored = await t.db.withSystem((tx) =>
      tx.select().from(webhooks).where(eq(webhooks.id, created.id)),
    );
    const audits = await t.db.withSystem((tx) =>
      tx.select().from(auditLog).where(eq(auditLog.tenantId, ctx.tenantId)),
    );
    expect(JSON.stringify([listed, stored, audits])).not.toContain(created.secret.slice(6));
    expect(redactText(`created with ${created.secret}`)).not.toContain(created.secret.slice(6));
  });

  it("refuses at save: http in production, private and loopback addresses, other schemes (400)", async () => {
    const ctx = await workspace("refusals");
    const production = { ...ctx, env: { ...ctx.env, NODE_ENV: "production" } };
    const refused = async (context: TenantContext, url: string) => {
      const error = await createWebhook({ ctx: context, input: { url, events: ["key.invalid"] } }).catch(
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(ServiceError);
      expect(error).toMatchObject({ code: "invalid_input" });
      return (error as Error).message;
    };
    expect(await refused(production, "http://hooks.example.com/in")).toBe(
      "webhook URL refused: hooks.example.com: only https is allowed",
    );
    const strict = { ...ctx, env: {} };
    expect(await refused(strict, "https://10.1.2.3/hook")).toMatch(/refused/);
    expect(await refused(strict, "https://169.254.169.254/latest")).toMatch(/refused/);
    expect(await refused(strict, receiver.url)).toMatch(/refused/);
    expect(await refused(strict, "https://localhost/hook")).toMatch(/refused/);
    expect(await refused(strict, "ftp://example.com/hook")).toMatch(/https/);
    expect(await listWebhooks({ ctx })).toEqual({ webhooks: [] });
  });

  it("delivers a test event signed the Standard Webhooks way, and logs it", async () => {
    const { ctx, webhook } = await hooked("test-event");
    const queued = await testWebhook({ ctx, input: { id: webhook.id } });
    expect(queued).toMatchObject({ event: "webhook.test", status: "pending", attempts: 0 });
    const before = receiver.received.length;
    expect(await deliverWebhooks(platform)).toBe(1);
    const [delivery] = receiver.received.slice(before);
    expect(delivery).toMatchObject({
      id: queued.message_id,
      signatureValid: true,
      body: { type: "webhook.test", data: { webhook_id: webhook.id } },
    });
    expect(delivery?.headers["content-type"]).toBe("application/json");
    const log = await listDeliveries({ ctx, input: { id: webhook.id } });
    expect(log.deliveries).toEqual([
      expect.objectContaining({
        id: queued.id,
        status: "succeeded",
        attempts: 1,
        last_status: 200,
        last_response: "ok",
        delivered_at: expect.any(String),
      }),
    ]);
  });

  it("retries after the receiver fails once, with the same webhook-id and a fresh signature", async () => {
    const { ctx, webhook } = await hooked("retry");
    receiver.answers.push(500);
    const queued = await testWebhook({ ctx, input: { id: webhook.id } });
    const before = receiver.received.length;
    await deliverWebhooks(platform);
    const [failed] = await listDeliveries({ ctx, input: { id: webhook.id } }).then((log) => log.deliveries);
    expect(failed).toMatchObject({
      status: "pending",
      attempts: 1,
      last_status: 500,
      last_error: "HTTP 500",
    });
    expect(failed?.last_response).toBe("receiver failed");
    // Not due yet: the first wait is 5 s.
    expect(await deliverWebhooks(platform)).toBe(0);
    await dueNow();
    expect(await deliverWebhooks(platform)).toBe(1);
    const attempts = receiver.received.slice(before);
    expect(attempts.map((a) => [a.id, a.signatureValid])).toEqual([
      [queued.message_id, true],
      [queued.message_id, true],
    ]);
    const [succeeded] = (await listDeliveries({ ctx, input: { id: webhook.id } })).deliveries;
    expect(succeeded).toMatchObject({ status: "succeeded", attempts: 2, last_status: 200, last_error: null });
  });

  it("fails a delivery after its last attempt", async () => {
    const { ctx, webhook } = await hooked("gives-up");
    await testWebhook({ ctx, input: { id: webhook.id } });
    receiver.answers.push(...Array.from({ length: 8 }, () => 503));
    for (let attempt = 0; attempt < 8; attempt++) {
      await dueNow();
      expect(await deliverWebhooks(platform)).toBe(1);
    }
    const [row] = await deliveriesOf(webhook.id);
    expect(row).toMatchObject({ status: "failed", attempts: 8, lastStatus: 503 });
    await dueNow();
    expect(await deliverWebhooks(platform)).toBe(0);
  });

  it("checks the endpoint again at delivery: a target no longer allowed is not sent to", async () => {
    const { ctx, webhook } = await hooked("recheck");
    await testWebhook({ ctx, input: { id: webhook.id } });
    const before = receiver.received.length;
    // The operator drops the allowlist entry that let loopback through.
    await deliverWebhooks({ ...platform, env: {} });
    expect(receiver.received.length).toBe(before);
    const [row] = await deliveriesOf(webhook.id);
    expect(row).toMatchObject({ status: "pending", attempts: 1, lastStatus: null });
    expect(row?.lastError).toMatch(/^refused: /);
  });

  it("writes events in the transaction of their change, once, only to webhooks that asked", async () => {
    const { ctx, webhook } = await hooked("events");
    const other = await createWebhook({ ctx, input: { url: receiver.url, events: ["crawl.completed"] } });
    // key.invalid: once per turn to invalid.
    await setKey({ ctx, input: { provider: "brave", key: "brave-key-1234" } });
    await markKeyInvalid({ ctx, input: { provider: "brave" } });
    await markKeyInvalid({ ctx, input: { provider: "brave" } });
    // budget.soft_limit: once per budget and period, however many calls cross it.
    await setBudget({
      ctx,
      input: { provider: "tavily", metric: "requests", period: "day", limit: 10, soft: 2 },
    });
    for (let i = 0; i < 4; i++) {
      const admission = await admit(ctx, { provider: "tavily", costMicros: 0, idempotencyKey: randomUUID() });
      if (admission.ok) await settle(ctx, admission.reservationId);
    }
    // research.failed: the job's outcome, written under its lease.
    const [job] = await t.db.withTenant(ctx.tenantId, (tx) =>
      tx
        .insert(researchJobs)
        .values({
          tenantId: ctx.tenantId,
          surface: "cli",
          scopes: [...ctx.scopes],
          input: { question: "q?" },
        })
        .returning(),
    );
    const claimed = await claimJob(t.db, "events-test", 30_000);
    expect(claimed?.id).toBe(job?.id);
    await writeJob(
      t.db,
      { id: job?.id ?? "", owner: "events-test" },
      { status: "failed", error: "nothing found" },
    );

    const rows = await deliveriesOf(webhook.id);
    expect(rows.map((row) => row.eventType).sort()).toEqual([
      "budget.soft_limit",
      "key.invalid",
      "research.failed",
    ]);
    const payload = (type: string) => rows.find((row) => row.eventType === type)?.payload;
    expect(payload("key.invalid")).toMatchObject({
      type: "key.invalid",
      data: { provider: "brave", last4: "1234" },
    });
    expect(payload("budget.soft_limit")).toMatchObject({
      data: { provider: "tavily", metric: "requests", period: "day", used: 2, soft_limit: 2, hard_limit: 10 },
    });
    expect(payload("research.failed")).toMatchObject({
      data: { id: job?.id, status: "failed", question: "q?", error: "nothing found" },
    });
    expect(await deliveriesOf(other.id)).toEqual([]);
    const before = receiver.received.length;
    await deliverWebhooks(platform);
    expect(
      receiver.received
        .slice(before)
        .map((r) => [r.body.type, r.signatureValid])
        .sort(),
    ).toEqual([
      ["budget.soft_limit", true],
      ["key.invalid", true],
      ["research.failed", true],
    ]);
  });

  it("keeps workspaces apart: another's webhook is not found, its events are not sent", async () => {
    const { ctx: a, webhook } = await hooked("tenant-a");
    const b = await workspace("tenant-b");
    await createWebhook({ ctx: b, input: { url: receiver.url, events: ["key.invalid"] } });
    for (const call of [
      () => testWebhook({ ctx: b, input: { id: webhook.id } }),
      () => deleteWebhook({ ctx: b, input: { id: webhook.id } }),
      () => listDeliveries({ ctx: b, input: { id: webhook.id } }),
    ]) {
      await expect(call()).rejects.toMatchObject({ code: "not_found" });
    }
    expect((await listWebhooks({ ctx: b })).webhooks.map((w) => w.id)).not.toContain(webhook.id);
    await setKey({ ctx: a, input: { provider: "exa", key: "exa-key-5678" } });
    await markKeyInvalid({ ctx: a, input: { provider: "exa" } });
    const sent = await t.db.withSystem((tx) =>
      tx
        .select()
        .from(webhookDeliveries)
        .where(
          and(eq(webhookDeliveries.tenantId, b.tenantId), eq(webhookDeliveries.eventType, "key.invalid")),
        ),
    );
    expect(sent).toEqual([]);
    await expect(listWebhooks({ ctx: await workspace("member", ["search"]) })).rejects.toMatchObject({
      code: "forbidden",
    });
  });

  it("holds the per-workspace limits under concurrent calls", async () => {
    const ctx = await workspace("limits");
    const results = await Promise.allSettled(
      Array.from({ length: MAX_WEBHOOKS + 3 }, () =>
        createWebhook({ ctx, input: { url: receiver.url, events: ["key.invalid"] } }),
      ),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(MAX_WEBHOOKS);
    expect(
      results.filter((r) => r.status === "rejected").map((r) => (r as PromiseRejectedResult).reason.code),
    ).toEqual(["conflict", "conflict", "conflict"]);
    const [first] = (await listWebhooks({ ctx })).webhooks;
    const tests = await Promise.allSettled(
      Array.from({ length: TEST_EVENTS_PER_MINUTE + 2 }, () =>
        testWebhook({ ctx, input: { id: first?.id ?? "" } }),
      ),
    );
    expect(tests.filter((r) => r.status === "fulfilled")).toHaveLength(TEST_EVENTS_PER_MINUTE);
    expect(
      tests.filter((r) => r.status === "rejected").map((r) => (r as PromiseRejectedResult).reason.code),
    ).toEqual(["rate_limited", "rate_limited"]);
  });

  it("two senders never send one delivery twice at once", async () => {
    const { ctx, webhook } = await hooked("two-senders");
    const queued: string[] = [];
    for (let i = 0; i < 3; i++)
      queued.push((await testWebhook({ ctx, input: { id: webhook.id } })).message_id);
    const before = receiver.received.length;
    await Promise.all([
      deliverWebhooks(platform, { ...DEFAULT_DELIVERY_RUN, owner: "one" }),
      deliverWebhooks(platform, { ...DEFAULT_DELIVERY_RUN, owner: "two" }),
    ]);
    // Other workspaces' deliveries may be due too: each of these three arrived exactly once.
    const ids = receiver.received.slice(before).map((r) => r.id);
    for (const id of queued) expect(ids.filter((seen) => seen === id)).toHaveLength(1);
    expect((await deliveriesOf(webhook.id)).map((row) => [row.status, row.attempts])).toEqual([
      ["succeeded", 1],
      ["succeeded", 1],
      ["succeeded", 1],
    ]);
  });
});
