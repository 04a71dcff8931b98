/**
 * The signer against the Standard Webhooks specification's published example, and the sender's endpoint
 * checks at delivery: a name that resolves to a private address is refused before any connection, and one
 * that rebinds between the check and the connection is refused by the pinned fetcher.
 */
import { describe, expect, it } from "vitest";
import { parseKeyring, sealWebhookSecret } from "@/lib/pipeline/keys/key-encryption";
import type { ClaimedDelivery } from "@/lib/services/webhooks/delivery-lease";
import { sendDelivery } from "@/lib/services/webhooks/send-delivery";
import { newWebhookSecret, signedHeaders, webhookSignature } from "@/lib/services/webhooks/signature";
import { startWebhookReceiver, verifies } from "@/tests/support/webhook-receiver";

describe("Standard Webhooks signatures", () => {
  it("reproduces the specification's example exactly", () => {
    expect(
      webhookSignature(
        "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
        "msg_p5jXN8AQM9LWM0D4loKWxJek",
        1614265330,
        '{"test": 2432232314}',
      ),
    ).toBe("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
  });

  it("signs with a new secret what an independent verifier accepts, and nothing else", () => {
    const secret = newWebhookSecret();
    const headers = signedHeaders(secret, "msg_1", 1700000000, '{"a":1}');
    const check = (body: string, key = secret) =>
      verifies(key, headers["webhook-id"], headers["webhook-timestamp"], body, headers["webhook-signature"]);
    expect(check('{"a":1}')).toBe(true);
    expect(check('{"a":2}')).toBe(false);
    expect(check('{"a":1}', newWebhookSecret())).toBe(false);
  });
});

describe("a delivery's endpoint at send time", () => {
  const keyring = parseKeyring(`1:${Buffer.alloc(32, 7).toString("base64")}`);
  const delivery = (url: string): ClaimedDelivery => {
    const webhook = {
      id: "00000000-0000-4000-8000-000000000001",
      tenantId: "00000000-0000-4000-8000-000000000002",
      url,
      events: ["key.invalid"],
      createdBy: null,
      createdAt: new Date(),
      consecutiveFailures: 0,
      failingSince: null,
      pausedAt: null,
      droppedEvents: 0,
      lastDroppedAt: null,
    };
    return {
      id: "00000000-0000-4000-8000-000000000003",
      tenantId: webhook.tenantId,
      webhookId: webhook.id,
      eventType: "key.invalid",
      payload: { type: "key.invalid", timestamp: "2026-01-01T00:00:00Z", data: {} },
      status: "delivering",
      attempts: 1,
      nextAttemptAt: new Date(),
      leaseOwner: "test",
      leaseExpiresAt: new Date(),
      lastStatus: null,
      lastError: null,
      lastResponse: null,
      lastAttemptAt: new Date(),
      deliveredAt: null,
      createdAt: new Date(),
      webhook: {
        ...webhook,
        ...sealWebhookSecret(keyring, newWebhookSecret(), { tenantId: webhook.tenantId, rowId: webhook.id }),
      },
    };
  };
  const platform = { env: {}, keyring, now: () => new Date() };

  it("refuses a name that resolves to a private address, asking nothing of it", async () => {
    const lookups: string[] = [];
    const outcome = await sendDelivery(delivery("https://hooks.example.com/in"), platform, async (name) => {
      lookups.push(name);
      return [{ address: "10.0.0.7", family: 4 }];
    });
    expect(outcome).toMatchObject({ ok: false });
    expect(outcome.error).toBe("refused: hooks.example.com resolves to a private address");
    expect(lookups).toEqual(["hooks.example.com"]);
  });

  it("refuses a name that rebinds to loopback after the check (the fetcher checks and pins again)", async () => {
    let lookups = 0;
    const outcome = await sendDelivery(delivery("https://rebind.example.com/in"), platform, async () => {
      lookups += 1;
      return [{ address: lookups === 1 ? "93.184.216.34" : "127.0.0.1", family: 4 }];
    });
    expect(lookups).toBe(2);
    expect(outcome.ok).toBe(false);
    expect(outcome.status).toBeUndefined();
    expect(outcome.error).toMatch(/127\.0\.0\.1|loopback|not allowed/);
  });

  it("keeps only the status of an allowlisted intranet host's answer, the answer of a loopback receiver too", async () => {
    const receiver = await startWebhookReceiver();
    try {
      const port = new URL(receiver.url).port;
      const intranet = {
        ...platform,
        env: { SEARCHMUX_FETCH_ALLOWLIST: "hooks.intranet.example,127.0.0.1" },
      };
      const toLoopback = async () => [{ address: "127.0.0.1", family: 4 as const }];
      const hidden = await sendDelivery(
        delivery(`http://hooks.intranet.example:${port}/in`),
        intranet,
        toLoopback,
      );
      expect(hidden).toMatchObject({ ok: true, status: 200 });
      expect(hidden.response).toBeUndefined();
      const shown = await sendDelivery(delivery(receiver.url), intranet, toLoopback);
      expect(shown).toMatchObject({ ok: true, status: 200, response: "ok" });
    } finally {
      await receiver.close();
    }
  });
});
