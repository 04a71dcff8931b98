/**
 * A webhook delivery outlives the instance sending it: a separate process (tests/support/webhook-sender-
 * instance.ts) claims the delivery and is killed (SIGKILL) while the receiver holds its request; once the
 * lease lapses this process sends it again, with the same webhook-id, and the receiver verifies both
 * signatures. Needs a real PostgreSQL (two processes on one database).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { webhookDeliveries } from "@/lib/db/schema";
import type { Platform } from "@/lib/pipeline/context";
import { parseKeyring } from "@/lib/pipeline/keys/key-encryption";
import { createTenant } from "@/lib/services/tenants/create-tenant";
import { createWebhook } from "@/lib/services/webhooks/create-webhook";
import { deliverWebhooks } from "@/lib/services/webhooks/deliver-webhooks";
import { testWebhook } from "@/lib/services/webhooks/test-webhook";
import { databaseTargets, type TestDatabase } from "@/tests/support/database";
import { systemCtx, tenantCtx, testPlatform } from "@/tests/support/platform";
import { startWebhookReceiver, type WebhookReceiver } from "@/tests/support/webhook-receiver";

const postgres = databaseTargets().find((target) => target.name === "postgres");

describe.runIf(postgres)("a webhook delivery whose sending instance is killed", () => {
  let t: TestDatabase;
  let platform: Platform;
  let receiver: WebhookReceiver;
  let instance: ChildProcess | undefined;
  const secretKey = `1:${randomBytes(32).toString("base64")}`;
  const env = { SEARCHMUX_FETCH_ALLOWLIST: "127.0.0.1" };

  const killInstance = () => {
    if (instance?.pid === undefined || instance.signalCode !== null) return;
    try {
      process.kill(-instance.pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  };

  beforeAll(async () => {
    t = await (postgres as NonNullable<typeof postgres>).create();
    platform = testPlatform(t.db, { env, keyring: parseKeyring(secretKey) });
    receiver = await startWebhookReceiver();
  });

  afterAll(async () => {
    killInstance();
    await receiver?.close();
    await t?.cleanup();
  });

  it("is sent again by another instance once the lease lapses, with the same webhook-id", async () => {
    const ctx = tenantCtx(
      platform,
      (await createTenant({ ctx: systemCtx(platform), input: { name: "killed" } })).id,
    );
    const webhook = await createWebhook({ ctx, input: { url: receiver.url, events: ["key.invalid"] } });
    receiver.secret = webhook.secret;
    receiver.answers.push("hold");
    const queued = await testWebhook({ ctx, input: { id: webhook.id } });

    instance = spawn("node_modules/.bin/tsx", ["tests/support/webhook-sender-instance.ts"], {
      env: { ...process.env, ...env, DATABASE_URL: t.url, SEARCHMUX_SECRET_KEY: secretKey },
      stdio: ["ignore", "pipe", "inherit"],
      detached: true,
    });
    const [owner] = (await new Promise<Buffer>((resolve) => instance?.stdout?.once("data", resolve)))
      .toString()
      .split("\n");
    await expect.poll(() => receiver.received.length, { timeout: 30_000 }).toBe(1);
    killInstance();
    const [held] = await t.db.withSystem((tx) =>
      tx.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, queued.id)),
    );
    expect(held).toMatchObject({ status: "delivering", leaseOwner: owner, attempts: 1 });

    await expect
      .poll(
        async () => {
          await deliverWebhooks(platform);
          return receiver.received.length;
        },
        { timeout: 30_000, interval: 500 },
      )
      .toBe(2);
    expect(receiver.received.map((r) => [r.id, r.signatureValid])).toEqual([
      [queued.message_id, true],
      [queued.message_id, true],
    ]);
    const [delivered] = await t.db.withSystem((tx) =>
      tx.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, queued.id)),
    );
    expect(delivered).toMatchObject({ status: "succeeded", attempts: 2, lastStatus: 200, leaseOwner: null });
  }, 90_000);
});
