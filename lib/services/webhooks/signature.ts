/**
 * Standard Webhooks signing (https://www.standardwebhooks.com, "Signature scheme"): the secret is `whsec_`
 * and the base64 of random bytes; each request carries `webhook-id` (the message id, the same on every
 * attempt), `webhook-timestamp` (Unix seconds of this attempt) and `webhook-signature`: `v1,` and the base64
 * HMAC-SHA256 of `{id}.{timestamp}.{body}` keyed with the secret's decoded bytes. Checked against the
 * specification's published example in tests/unit/webhooks/signature.test.ts.
 */
import { createHmac, randomBytes } from "node:crypto";

const SECRET_PREFIX = "whsec_";
/** 32 bytes: the specification asks for 24 to 64. */
const SECRET_BYTES = 32;

export function newWebhookSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(SECRET_BYTES).toString("base64")}`;
}

/** `v1,<base64 signature>` of one attempt. */
export function webhookSignature(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(
    secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret,
    "base64",
  );
  const mac = createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest("base64");
  return `v1,${mac}`;
}

/** The three headers of one attempt. */
export function signedHeaders(secret: string, id: string, timestamp: number, body: string) {
  return {
    "webhook-id": id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": webhookSignature(secret, id, timestamp, body),
  };
}
