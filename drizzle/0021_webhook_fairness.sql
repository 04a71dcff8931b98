-- Webhooks that no workspace can use to delay another's (lib/services/webhooks; docs/api.md, "Webhooks"):
-- limits on the outbox, a webhook paused when its receiver keeps failing, key.invalid once per key.
--
-- Every event goes through enqueue_webhook_event, which now queues a delivery for a webhook only while
-- webhook_event_refusal finds no reason not to: the webhook is paused, it has 100 deliveries not yet done,
-- 30 were queued for it in the last minute (test events count), or its workspace has 250 not yet done. A
-- refused event is dropped and counted on the webhook (dropped_events, last_dropped_at), with an audit row
-- `webhook.events_dropped` at most once an hour per webhook. The counts are taken under a transaction lock
-- per workspace (lock_webhook_outbox), which test events take too, so concurrent events cannot pass a limit
-- together; the lock is always taken before any webhook row, so it cannot deadlock with them.
--
-- key.invalid is sent once per key: provider_keys.fingerprint says which key a row holds (an HMAC set when it
-- is stored), invalid_reported which key was last reported invalid. The same key stored again and refused
-- again is not reported again; another key is, and a key found working (ok) clears the record. A BEFORE trigger
-- holds the row's lock, so two instances marking one key invalid at once report it once.
ALTER TABLE "provider_keys" ADD COLUMN "fingerprint" text;--> statement-breakpoint
ALTER TABLE "provider_keys" ADD COLUMN "invalid_reported" text;--> statement-breakpoint
ALTER TABLE "webhooks" ADD COLUMN "consecutive_failures" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "webhooks" ADD COLUMN "failing_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "webhooks" ADD COLUMN "paused_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "webhooks" ADD COLUMN "dropped_events" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "webhooks" ADD COLUMN "last_dropped_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_undone_idx" ON "webhook_deliveries" USING btree ("tenant_id","webhook_id") WHERE "webhook_deliveries"."status" in ('pending', 'delivering');
--> statement-breakpoint
CREATE OR REPLACE FUNCTION lock_webhook_outbox(p_tenant uuid) RETURNS void
LANGUAGE sql
AS $$
  SELECT pg_advisory_xact_lock(hashtextextended('searchmux.webhook-outbox.' || p_tenant::text, 0))
$$;--> statement-breakpoint
-- Why one more event may not be queued for the webhook now, or null. The caller holds lock_webhook_outbox
-- of its workspace. A test event is sent to a paused webhook (its success resumes it).
CREATE OR REPLACE FUNCTION webhook_event_refusal(p_webhook uuid, p_test boolean) RETURNS text
LANGUAGE sql
STABLE
AS $$
  SELECT CASE
    WHEN NOT p_test AND w.paused_at IS NOT NULL THEN 'paused'
    WHEN (SELECT count(*) FROM webhook_deliveries d
           WHERE d.tenant_id = w.tenant_id AND d.webhook_id = w.id AND d.status IN ('pending', 'delivering')) >= 100
      THEN 'webhook_pending'
    WHEN (SELECT count(*) FROM webhook_deliveries d
           WHERE d.tenant_id = w.tenant_id AND d.webhook_id = w.id AND d.created_at > now() - interval '1 minute') >= 30
      THEN 'webhook_rate'
    WHEN (SELECT count(*) FROM webhook_deliveries d
           WHERE d.tenant_id = w.tenant_id AND d.status IN ('pending', 'delivering')) >= 250
      THEN 'workspace_pending'
  END
  FROM webhooks w WHERE w.id = p_webhook
$$;--> statement-breakpoint
-- Counts an event not queued for the webhook; the first after an hour without one gets an audit row.
CREATE OR REPLACE FUNCTION record_dropped_webhook_event(p_webhook uuid, p_type text, p_reason text) RETURNS void
LANGUAGE plpgsql
AS $$
DECLARE
  v_tenant uuid;
  v_previous timestamptz;
BEGIN
  SELECT tenant_id, last_dropped_at INTO v_tenant, v_previous FROM webhooks WHERE id = p_webhook FOR UPDATE;
  UPDATE webhooks SET dropped_events = dropped_events + 1, last_dropped_at = now() WHERE id = p_webhook;
  IF v_previous IS NULL OR v_previous < now() - interval '1 hour' THEN
    INSERT INTO audit_log (tenant_id, action, target_type, target_id, details)
    VALUES (v_tenant, 'webhook.events_dropped', 'webhook', p_webhook::text,
            jsonb_build_object('actor', 'system', 'event', p_type, 'reason', p_reason));
  END IF;
END
$$;--> statement-breakpoint
-- One delivery of the event per webhook of the tenant that asked for it and may be sent one more; the body
-- is Standard Webhooks' {type, timestamp, data}. Runs with the caller's role: a tenant transaction sees only
-- its own webhooks.
CREATE OR REPLACE FUNCTION enqueue_webhook_event(p_tenant uuid, p_type text, p_data jsonb) RETURNS void
LANGUAGE plpgsql
AS $$
DECLARE
  v_hook uuid;
  v_refusal text;
BEGIN
  IF NOT EXISTS (SELECT 1 FROM webhooks w WHERE w.tenant_id = p_tenant AND p_type = ANY (w.events)) THEN
    RETURN;
  END IF;
  PERFORM lock_webhook_outbox(p_tenant);
  FOR v_hook IN
    SELECT w.id FROM webhooks w WHERE w.tenant_id = p_tenant AND p_type = ANY (w.events) ORDER BY w.id
  LOOP
    v_refusal := webhook_event_refusal(v_hook, false);
    IF v_refusal IS NULL THEN
      INSERT INTO webhook_deliveries (tenant_id, webhook_id, event_type, payload)
      VALUES (p_tenant, v_hook, p_type, jsonb_build_object(
        'type', p_type,
        'timestamp', to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
        'data', p_data));
    ELSE
      PERFORM record_dropped_webhook_event(v_hook, p_type, v_refusal);
    END IF;
  END LOOP;
END
$$;--> statement-breakpoint
-- key.invalid: a stored key turned invalid (a provider refused it in a call, or a key test), unless this very
-- key was reported invalid already; a key found working (ok) may be reported again when it fails later.
CREATE OR REPLACE FUNCTION key_invalid_event() RETURNS trigger
LANGUAGE plpgsql
AS $$
DECLARE
  v_key text := coalesce(NEW.fingerprint, 'unfingerprinted');
BEGIN
  IF NEW.status = 'ok' THEN
    NEW.invalid_reported := NULL;
  ELSIF NEW.status = 'invalid' AND NEW.invalid_reported IS DISTINCT FROM v_key THEN
    NEW.invalid_reported := v_key;
    PERFORM enqueue_webhook_event(NEW.tenant_id, 'key.invalid',
      jsonb_build_object('provider', NEW.provider, 'last4', NEW.last4));
  END IF;
  RETURN NEW;
END
$$;--> statement-breakpoint
DROP TRIGGER "provider_keys_invalid_event" ON "provider_keys";--> statement-breakpoint
CREATE TRIGGER provider_keys_invalid_event BEFORE UPDATE OF status ON provider_keys
  FOR EACH ROW WHEN (NEW.status IS DISTINCT FROM OLD.status)
  EXECUTE FUNCTION key_invalid_event();
