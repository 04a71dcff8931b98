-- A provider refused a stored key for its quota, credit or payment limit (lib/pipeline/keys/mark-key-quota.ts):
-- the key's row says until when, for the keys page and GET /api/v1/keys, and a new span outcome records the
-- attempts skipped meanwhile.
ALTER TYPE "public"."span_outcome" ADD VALUE 'skipped_quota';--> statement-breakpoint
ALTER TABLE "provider_keys" ADD COLUMN "quota_until" timestamp with time zone;--> statement-breakpoint
-- key.quota: once per turn into the quota state (from none, or from a pause that had ended), however many
-- calls meet the refusal: the update that moves quota_until is conditional on the same test, so of two
-- instances that meet it at once only one changes the row, and only that change fires the event.
CREATE OR REPLACE FUNCTION key_quota_event() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  PERFORM enqueue_webhook_event(NEW.tenant_id, 'key.quota', jsonb_build_object(
    'provider', NEW.provider,
    'last4', NEW.last4,
    'until', to_char(NEW.quota_until AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')));
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER provider_keys_quota_event AFTER UPDATE OF quota_until ON provider_keys
  FOR EACH ROW WHEN (NEW.quota_until > now() AND (OLD.quota_until IS NULL OR OLD.quota_until <= now()))
  EXECUTE FUNCTION key_quota_event();
