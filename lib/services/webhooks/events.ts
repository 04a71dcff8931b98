/** The events a webhook can ask for, and the test event every webhook receives when asked for one. */
import { z } from "zod";

export const WEBHOOK_EVENTS = [
  "research.succeeded",
  "research.failed",
  "crawl.completed",
  "budget.soft_limit",
  "key.invalid",
  /** A stored key the provider refused for its quota, credit or payment limit: once per turn into that state. */
  "key.quota",
] as const;

export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

/** What `POST /api/v1/webhooks/<id>/test` sends: delivered whatever the webhook's events. */
export const TEST_EVENT = "webhook.test";

export const webhookEventsField = z
  .array(z.enum(WEBHOOK_EVENTS))
  .min(1)
  .max(WEBHOOK_EVENTS.length)
  .transform((events) => [...new Set(events)])
  .describe(`Events to receive: ${WEBHOOK_EVENTS.join(", ")}`);
