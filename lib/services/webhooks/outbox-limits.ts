/**
 * The limits every event is queued within (enqueue_webhook_event and webhook_event_refusal in
 * drizzle/0021_webhook_fairness.sql, where they are enforced; these name them for messages, docs and tests,
 * which check the two agree): no workspace can fill the outbox all workspaces share.
 */

/** Deliveries of one webhook not yet done (pending or being sent). */
export const MAX_UNDONE_PER_WEBHOOK = 100;
/** Events queued for one webhook in a minute, test events and real ones together. */
export const EVENTS_PER_MINUTE_PER_WEBHOOK = 30;
/** Deliveries of one workspace not yet done, all its webhooks together. */
export const MAX_UNDONE_PER_WORKSPACE = 250;

/** Why webhook_event_refusal refuses an event, as it says it. */
export type OutboxRefusal = "paused" | "webhook_pending" | "webhook_rate" | "workspace_pending";

/** What each refusal means, for a caller who asked for a test event. */
export const OUTBOX_REFUSAL_MESSAGES: Readonly<Record<Exclude<OutboxRefusal, "paused">, string>> = {
  webhook_pending: `this webhook has ${MAX_UNDONE_PER_WEBHOOK} deliveries not yet done, the most allowed; retry when some are done`,
  webhook_rate: `this webhook was sent ${EVENTS_PER_MINUTE_PER_WEBHOOK} events in the last minute, the most allowed`,
  workspace_pending: `this workspace has ${MAX_UNDONE_PER_WORKSPACE} webhook deliveries not yet done, the most allowed; retry when some are done`,
};
