/**
 * One attempt of one delivery: the endpoint checked again (endpoint-policy.ts), then a signed POST through
 * the SSRF-safe fetcher (pinned to the address it checked), redirects not followed, a bounded time. A 2xx is
 * a success; anything else, a refusal or no answer is a failure, with a short excerpt of the answer kept —
 * except from a host the operator allowlisted (not a loopback address): an intranet service's answer is for
 * the operator's eyes, not every workspace admin's, so its log keeps the status only.
 */

import { safeFetch } from "@/lib/http/safe-fetch";
import { isAllowlistedHost, type Resolver } from "@/lib/http/ssrf";
import type { Env, Keyring } from "@/lib/pipeline/capabilities";
import { openWebhookSecret } from "@/lib/pipeline/keys/key-encryption";
import type { AttemptOutcome, ClaimedDelivery } from "./delivery-lease";
import { endpointRefusal, webhookPolicy } from "./endpoint-policy";
import { signedHeaders } from "./signature";
import { messageId } from "./webhook-view";

/** How long a receiver has to answer: connect, headers and body together. */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** What is read of an answer; a receiver has no reason to say more. */
const RESPONSE_MAX_BYTES = 64 * 1024;
/** What is kept of an answer (and of an error), for the delivery log. */
const EXCERPT_CHARS = 200;

const excerpt = (text: string) => text.replace(/\s+/g, " ").trim().slice(0, EXCERPT_CHARS);

const LOOPBACK_LITERALS = /^(127\.\d+\.\d+\.\d+|\[::1\])$/;

/** Whether the delivery log may show what `url`'s host answered: not an allowlisted intranet host's. */
const mayShowAnswer = (url: URL, env: Env) =>
  LOOPBACK_LITERALS.test(url.hostname) || !isAllowlistedHost(url.hostname, webhookPolicy(env).allowlist);

export async function sendDelivery(
  delivery: ClaimedDelivery,
  platform: { env: Env; keyring: Keyring; now(): Date },
  resolver?: Resolver,
): Promise<AttemptOutcome> {
  const { webhook } = delivery;
  const url = new URL(webhook.url);
  const refusal = await endpointRefusal(url, platform.env, resolver);
  if (refusal !== undefined) return { ok: false, error: excerpt(`refused: ${refusal}`) };
  let secret: string;
  try {
    secret = openWebhookSecret(platform.keyring, webhook, { tenantId: webhook.tenantId, rowId: webhook.id });
  } catch {
    return {
      ok: false,
      error: "the signing secret cannot be read with this instance's SEARCHMUX_SECRET_KEY",
    };
  }
  const body = JSON.stringify(delivery.payload);
  const timestamp = Math.floor(platform.now().getTime() / 1000);
  try {
    const response = await safeFetch(url.toString(), {
      policy: webhookPolicy(platform.env),
      resolver,
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "*/*",
        ...signedHeaders(secret, messageId(delivery.id), timestamp, body),
      },
      body,
      followRedirects: false,
      timeoutMs: DELIVERY_TIMEOUT_MS,
      maxBytes: RESPONSE_MAX_BYTES,
    });
    const answer = mayShowAnswer(url, platform.env) ? excerpt(response.body.toString("utf8")) : "";
    const ok = response.status >= 200 && response.status < 300;
    return {
      ok,
      status: response.status,
      response: answer || undefined,
      ...(!ok && {
        error:
          response.status >= 300 && response.status < 400
            ? `redirects are not followed (to ${excerpt(response.headers.location ?? "?")})`
            : `HTTP ${response.status}`,
      }),
    };
  } catch (error) {
    return { ok: false, error: excerpt(error instanceof Error ? error.message : String(error)) };
  }
}
