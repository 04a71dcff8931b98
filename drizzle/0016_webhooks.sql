-- Webhooks (lib/services/webhooks) and crawl jobs (lib/services/crawl/*-crawl-job.ts).
--
-- Events reach the outbox, webhook_deliveries, in the transaction of the change they report: triggers on the
-- rows that change (a budget alert, a provider key, a job's status) call enqueue_webhook_event, which writes
-- one delivery per webhook of the tenant that asked for the event. A change that rolls back leaves no event;
-- a change that commits cannot lose its event. The budget alert's unique index (once per budget and period)
-- is the soft-limit event's dedupe: ON CONFLICT DO NOTHING inserts no row and fires no trigger.
CREATE TYPE "public"."job_kind" AS ENUM('research', 'crawl');--> statement-breakpoint
CREATE TYPE "public"."webhook_delivery_status" AS ENUM('pending', 'delivering', 'succeeded', 'failed');--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"webhook_id" uuid NOT NULL,
	"event_type" text NOT NULL,
	"payload" jsonb NOT NULL,
	"status" "webhook_delivery_status" DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"lease_owner" text,
	"lease_expires_at" timestamp with time zone,
	"last_status" integer,
	"last_error" text,
	"last_response" text,
	"last_attempt_at" timestamp with time zone,
	"delivered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "webhooks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"url" text NOT NULL,
	"events" text[] NOT NULL,
	"ciphertext" text NOT NULL,
	"iv" text NOT NULL,
	"tag" text NOT NULL,
	"key_version" smallint NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "webhooks" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "research_jobs" ADD COLUMN "kind" "job_kind" DEFAULT 'research' NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_webhook_id_webhooks_id_fk" FOREIGN KEY ("webhook_id") REFERENCES "public"."webhooks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhooks" ADD CONSTRAINT "webhooks_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhooks" ADD CONSTRAINT "webhooks_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_webhook_idx" ON "webhook_deliveries" USING btree ("tenant_id","webhook_id","created_at");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "webhooks_tenant_idx" ON "webhooks" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "webhook_deliveries" AS PERMISSIVE FOR ALL TO "searchmux_app" USING ("webhook_deliveries"."tenant_id" = current_tenant_id()) WITH CHECK ("webhook_deliveries"."tenant_id" = current_tenant_id());--> statement-breakpoint
CREATE POLICY "system_access" ON "webhook_deliveries" AS PERMISSIVE FOR ALL TO "searchmux_system" USING (true) WITH CHECK (true);--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "webhooks" AS PERMISSIVE FOR ALL TO "searchmux_app" USING ("webhooks"."tenant_id" = current_tenant_id()) WITH CHECK ("webhooks"."tenant_id" = current_tenant_id());--> statement-breakpoint
CREATE POLICY "system_access" ON "webhooks" AS PERMISSIVE FOR ALL TO "searchmux_system" USING (true) WITH CHECK (true);--> statement-breakpoint
ALTER TABLE "webhooks" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON "webhooks", "webhook_deliveries" TO searchmux_app, searchmux_system;--> statement-breakpoint
-- One delivery of the event per webhook of the tenant that asked for it; the body is Standard Webhooks'
-- {type, timestamp, data}. Runs with the caller's role: a tenant transaction sees only its own webhooks.
CREATE OR REPLACE FUNCTION enqueue_webhook_event(p_tenant uuid, p_type text, p_data jsonb) RETURNS void
LANGUAGE sql
AS $$
  INSERT INTO webhook_deliveries (tenant_id, webhook_id, event_type, payload)
  SELECT w.tenant_id, w.id, p_type,
         jsonb_build_object(
           'type', p_type,
           'timestamp', to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
           'data', p_data)
    FROM webhooks w
   WHERE w.tenant_id = p_tenant AND p_type = ANY (w.events)
$$;--> statement-breakpoint
-- budget.soft_limit: a soft-limit alert row is written once per budget and period (admit_calls).
CREATE OR REPLACE FUNCTION budget_alert_event() RETURNS trigger
LANGUAGE plpgsql
AS $$
DECLARE
  v_budget record;
BEGIN
  SELECT provider, metric::text AS metric, period::text AS period, hard_limit INTO v_budget
    FROM budgets WHERE id = NEW.budget_id;
  PERFORM enqueue_webhook_event(NEW.tenant_id, 'budget.soft_limit', jsonb_build_object(
    'budget_id', NEW.budget_id,
    'provider', v_budget.provider,
    'metric', v_budget.metric,
    'period', v_budget.period,
    'period_key', NEW.period_key,
    -- usd budgets count micro-dollars; the event says dollars.
    'used', CASE WHEN v_budget.metric = 'usd' THEN NEW.used / 1000000.0 ELSE NEW.used END,
    'soft_limit', CASE WHEN v_budget.metric = 'usd' THEN NEW."limit" / 1000000.0 ELSE NEW."limit" END,
    'hard_limit', CASE WHEN v_budget.metric = 'usd' THEN v_budget.hard_limit / 1000000.0 ELSE v_budget.hard_limit END));
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER budget_alerts_event AFTER INSERT ON budget_alerts
  FOR EACH ROW WHEN (NEW.kind = 'soft_limit') EXECUTE FUNCTION budget_alert_event();--> statement-breakpoint
-- key.invalid: a stored key turned invalid (a provider refused it in a call, or a key test).
CREATE OR REPLACE FUNCTION key_invalid_event() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  PERFORM enqueue_webhook_event(NEW.tenant_id, 'key.invalid',
    jsonb_build_object('provider', NEW.provider, 'last4', NEW.last4));
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER provider_keys_invalid_event AFTER UPDATE OF status ON provider_keys
  FOR EACH ROW WHEN (NEW.status = 'invalid' AND OLD.status IS DISTINCT FROM 'invalid')
  EXECUTE FUNCTION key_invalid_event();--> statement-breakpoint
-- research.succeeded, research.failed and crawl.completed: a job reached its outcome (cancelled is none).
CREATE OR REPLACE FUNCTION job_finished_event() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  IF NEW.kind = 'research' THEN
    PERFORM enqueue_webhook_event(NEW.tenant_id, 'research.' || NEW.status::text, jsonb_build_object(
      'id', NEW.id, 'status', NEW.status, 'question', NEW.input->>'question', 'partial', NEW.partial,
      'stop_reason', NEW.stop_reason, 'error', NEW.error, 'trace_id', NEW.trace_id));
  ELSE
    PERFORM enqueue_webhook_event(NEW.tenant_id, 'crawl.completed', jsonb_build_object(
      'id', NEW.id, 'status', NEW.status, 'url', NEW.input->>'url', 'mode', NEW.input->>'mode',
      'pages', coalesce((NEW.state->'counts'->>'pages')::integer, 0), 'stopped', NEW.state->>'stopped',
      'error', NEW.error, 'trace_id', NEW.trace_id));
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER research_jobs_finished_event AFTER UPDATE OF status ON research_jobs
  FOR EACH ROW WHEN (NEW.status IN ('succeeded', 'failed') AND OLD.status IS DISTINCT FROM NEW.status)
  EXECUTE FUNCTION job_finished_event();
