/** A webhook and its deliveries as the API and the dashboard show them: never the secret. */
import type { webhookDeliveries, webhooks } from "@/lib/db/schema";

type WebhookRow = typeof webhooks.$inferSelect;
type DeliveryRow = typeof webhookDeliveries.$inferSelect;

export interface WebhookView {
  id: string;
  url: string;
  events: string[];
  created_at: string;
  /** When its receiver's failures paused it (nothing but test events is sent; a test's success resumes it). */
  paused_at: string | null;
  /** Failed attempts in a row now. */
  consecutive_failures: number;
  /** Events not queued for it (paused, or over a limit of the outbox), and the last time one was. */
  dropped_events: number;
  last_dropped_at: string | null;
}

export interface DeliveryView {
  id: string;
  /** The `webhook-id` header the receiver saw. */
  message_id: string;
  event: string;
  status: DeliveryRow["status"];
  attempts: number;
  last_status: number | null;
  last_error: string | null;
  /** The start of the receiver's last answer (at most 200 characters). */
  last_response: string | null;
  created_at: string;
  last_attempt_at: string | null;
  next_attempt_at: string | null;
  delivered_at: string | null;
}

export const toWebhookView = (row: WebhookRow): WebhookView => ({
  id: row.id,
  url: row.url,
  events: row.events,
  created_at: row.createdAt.toISOString(),
  paused_at: row.pausedAt?.toISOString() ?? null,
  consecutive_failures: row.consecutiveFailures,
  dropped_events: row.droppedEvents,
  last_dropped_at: row.lastDroppedAt?.toISOString() ?? null,
});

/** The message id of a delivery: `msg_` and its row id, the same on every attempt (idempotency for receivers). */
export const messageId = (deliveryId: string) => `msg_${deliveryId.replaceAll("-", "")}`;

export const toDeliveryView = (row: DeliveryRow): DeliveryView => ({
  id: row.id,
  message_id: messageId(row.id),
  event: row.eventType,
  status: row.status,
  attempts: row.attempts,
  last_status: row.lastStatus,
  last_error: row.lastError,
  last_response: row.lastResponse,
  created_at: row.createdAt.toISOString(),
  last_attempt_at: row.lastAttemptAt?.toISOString() ?? null,
  next_attempt_at: row.status === "pending" ? row.nextAttemptAt.toISOString() : null,
  delivered_at: row.deliveredAt?.toISOString() ?? null,
});
