CREATE TYPE "public"."budget_metric" AS ENUM('requests', 'usd');--> statement-breakpoint
CREATE TYPE "public"."budget_period" AS ENUM('day', 'month', 'lifetime');--> statement-breakpoint
CREATE TYPE "public"."key_status" AS ENUM('ok', 'invalid', 'unknown');--> statement-breakpoint
CREATE TYPE "public"."membership_role" AS ENUM('owner', 'admin', 'member');--> statement-breakpoint
CREATE TYPE "public"."reservation_status" AS ENUM('reserved', 'settled', 'released');--> statement-breakpoint
CREATE TYPE "public"."span_kind" AS ENUM('search', 'fetch', 'answer', 'papers', 'llm');--> statement-breakpoint
CREATE TYPE "public"."span_outcome" AS ENUM('ok', 'empty', 'error', 'timeout', 'skipped_budget', 'skipped_breaker', 'cache_hit');--> statement-breakpoint
CREATE TYPE "public"."trace_status" AS ENUM('ok', 'partial', 'error');--> statement-breakpoint
CREATE TYPE "public"."trace_surface" AS ENUM('mcp', 'rest', 'playground', 'cli');--> statement-breakpoint
CREATE TABLE "accounts" (
	"user_id" uuid NOT NULL,
	"type" text NOT NULL,
	"provider" text NOT NULL,
	"provider_account_id" text NOT NULL,
	"refresh_token" text,
	"access_token" text,
	"expires_at" integer,
	"token_type" text,
	"scope" text,
	"id_token" text,
	"session_state" text,
	CONSTRAINT "accounts_provider_provider_account_id_pk" PRIMARY KEY("provider","provider_account_id")
);
--> statement-breakpoint
ALTER TABLE "accounts" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "api_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"name" text NOT NULL,
	"scopes" text[] NOT NULL,
	"token_hash" text NOT NULL,
	"display_start" text NOT NULL,
	"last4" text NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "api_tokens" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"actor_user_id" uuid,
	"actor_token_id" uuid,
	"action" text NOT NULL,
	"target_type" text NOT NULL,
	"target_id" text,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "audit_log" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "budgets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"metric" "budget_metric" NOT NULL,
	"period" "budget_period" NOT NULL,
	"hard_limit" bigint NOT NULL,
	"soft_limit" bigint,
	"anchor_day" smallint DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "budgets" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "memberships" (
	"tenant_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"role" "membership_role" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "memberships_tenant_id_user_id_pk" PRIMARY KEY("tenant_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "memberships" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "provider_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"ciphertext" text NOT NULL,
	"iv" text NOT NULL,
	"tag" text NOT NULL,
	"key_version" smallint NOT NULL,
	"last4" text NOT NULL,
	"status" "key_status" DEFAULT 'unknown' NOT NULL,
	"checked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "provider_keys" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "reservations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"idempotency_key" text NOT NULL,
	"provider" text NOT NULL,
	"metric" "budget_metric" NOT NULL,
	"period_key" text NOT NULL,
	"amount" bigint NOT NULL,
	"status" "reservation_status" DEFAULT 'reserved' NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"settled_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "reservations" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "sessions" (
	"session_token" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"expires" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sessions" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "tenants" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"timezone" text DEFAULT 'UTC' NOT NULL,
	"trace_retention_days" integer DEFAULT 30 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tenants" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "trace_spans" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"trace_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"kind" "span_kind" NOT NULL,
	"start_offset_ms" integer NOT NULL,
	"duration_ms" integer NOT NULL,
	"http_status" smallint,
	"bytes" integer,
	"outcome" "span_outcome" NOT NULL,
	"error" text,
	"cost_micros" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "trace_spans" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "traces" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"tool" text NOT NULL,
	"surface" "trace_surface" NOT NULL,
	"token_id" uuid,
	"token_name" text,
	"status" "trace_status" NOT NULL,
	"duration_ms" integer NOT NULL,
	"cache_hit" boolean DEFAULT false NOT NULL,
	"input" jsonb NOT NULL,
	"result_summary" jsonb NOT NULL,
	"cost_micros" bigint DEFAULT 0 NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "traces" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "usage_counters" (
	"tenant_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"metric" "budget_metric" NOT NULL,
	"period_key" text NOT NULL,
	"used" bigint DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "usage_counters_tenant_id_provider_metric_period_key_pk" PRIMARY KEY("tenant_id","provider","metric","period_key")
);
--> statement-breakpoint
ALTER TABLE "usage_counters" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text,
	"email" text,
	"email_verified" timestamp with time zone,
	"image" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_email_unique" UNIQUE("email")
);
--> statement-breakpoint
ALTER TABLE "users" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "verification_tokens" (
	"identifier" text NOT NULL,
	"token" text NOT NULL,
	"expires" timestamp with time zone NOT NULL,
	CONSTRAINT "verification_tokens_identifier_token_pk" PRIMARY KEY("identifier","token")
);
--> statement-breakpoint
ALTER TABLE "verification_tokens" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_actor_user_id_users_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_actor_token_id_api_tokens_id_fk" FOREIGN KEY ("actor_token_id") REFERENCES "public"."api_tokens"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "budgets" ADD CONSTRAINT "budgets_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_keys" ADD CONSTRAINT "provider_keys_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reservations" ADD CONSTRAINT "reservations_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trace_spans" ADD CONSTRAINT "trace_spans_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trace_spans" ADD CONSTRAINT "trace_spans_trace_id_traces_id_fk" FOREIGN KEY ("trace_id") REFERENCES "public"."traces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "traces" ADD CONSTRAINT "traces_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "traces" ADD CONSTRAINT "traces_token_id_api_tokens_id_fk" FOREIGN KEY ("token_id") REFERENCES "public"."api_tokens"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_counters" ADD CONSTRAINT "usage_counters_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "accounts_user_idx" ON "accounts" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "api_tokens_hash_idx" ON "api_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "api_tokens_tenant_idx" ON "api_tokens" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE INDEX "audit_log_tenant_created_idx" ON "audit_log" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "budgets_scope_idx" ON "budgets" USING btree ("tenant_id","provider","metric","period");--> statement-breakpoint
CREATE INDEX "memberships_user_idx" ON "memberships" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "provider_keys_tenant_provider_idx" ON "provider_keys" USING btree ("tenant_id","provider");--> statement-breakpoint
CREATE UNIQUE INDEX "reservations_idempotency_idx" ON "reservations" USING btree ("tenant_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "reservations_expiry_idx" ON "reservations" USING btree ("tenant_id","status","expires_at");--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "trace_spans_trace_idx" ON "trace_spans" USING btree ("tenant_id","trace_id");--> statement-breakpoint
CREATE INDEX "traces_tenant_created_idx" ON "traces" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE POLICY "system_access" ON "accounts" AS PERMISSIVE FOR ALL TO "searchmux_system" USING (true) WITH CHECK (true);--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "api_tokens" AS PERMISSIVE FOR ALL TO "searchmux_app" USING ("api_tokens"."tenant_id" = current_tenant_id()) WITH CHECK ("api_tokens"."tenant_id" = current_tenant_id());--> statement-breakpoint
CREATE POLICY "system_access" ON "api_tokens" AS PERMISSIVE FOR ALL TO "searchmux_system" USING (true) WITH CHECK (true);--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "audit_log" AS PERMISSIVE FOR ALL TO "searchmux_app" USING ("audit_log"."tenant_id" = current_tenant_id()) WITH CHECK ("audit_log"."tenant_id" = current_tenant_id());--> statement-breakpoint
CREATE POLICY "system_access" ON "audit_log" AS PERMISSIVE FOR ALL TO "searchmux_system" USING (true) WITH CHECK (true);--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "budgets" AS PERMISSIVE FOR ALL TO "searchmux_app" USING ("budgets"."tenant_id" = current_tenant_id()) WITH CHECK ("budgets"."tenant_id" = current_tenant_id());--> statement-breakpoint
CREATE POLICY "system_access" ON "budgets" AS PERMISSIVE FOR ALL TO "searchmux_system" USING (true) WITH CHECK (true);--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "memberships" AS PERMISSIVE FOR ALL TO "searchmux_app" USING ("memberships"."tenant_id" = current_tenant_id()) WITH CHECK ("memberships"."tenant_id" = current_tenant_id());--> statement-breakpoint
CREATE POLICY "system_access" ON "memberships" AS PERMISSIVE FOR ALL TO "searchmux_system" USING (true) WITH CHECK (true);--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "provider_keys" AS PERMISSIVE FOR ALL TO "searchmux_app" USING ("provider_keys"."tenant_id" = current_tenant_id()) WITH CHECK ("provider_keys"."tenant_id" = current_tenant_id());--> statement-breakpoint
CREATE POLICY "system_access" ON "provider_keys" AS PERMISSIVE FOR ALL TO "searchmux_system" USING (true) WITH CHECK (true);--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "reservations" AS PERMISSIVE FOR ALL TO "searchmux_app" USING ("reservations"."tenant_id" = current_tenant_id()) WITH CHECK ("reservations"."tenant_id" = current_tenant_id());--> statement-breakpoint
CREATE POLICY "system_access" ON "reservations" AS PERMISSIVE FOR ALL TO "searchmux_system" USING (true) WITH CHECK (true);--> statement-breakpoint
CREATE POLICY "system_access" ON "sessions" AS PERMISSIVE FOR ALL TO "searchmux_system" USING (true) WITH CHECK (true);--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "tenants" AS PERMISSIVE FOR ALL TO "searchmux_app" USING ("tenants"."id" = current_tenant_id());--> statement-breakpoint
CREATE POLICY "system_access" ON "tenants" AS PERMISSIVE FOR ALL TO "searchmux_system" USING (true) WITH CHECK (true);--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "trace_spans" AS PERMISSIVE FOR ALL TO "searchmux_app" USING ("trace_spans"."tenant_id" = current_tenant_id()) WITH CHECK ("trace_spans"."tenant_id" = current_tenant_id());--> statement-breakpoint
CREATE POLICY "system_access" ON "trace_spans" AS PERMISSIVE FOR ALL TO "searchmux_system" USING (true) WITH CHECK (true);--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "traces" AS PERMISSIVE FOR ALL TO "searchmux_app" USING ("traces"."tenant_id" = current_tenant_id()) WITH CHECK ("traces"."tenant_id" = current_tenant_id());--> statement-breakpoint
CREATE POLICY "system_access" ON "traces" AS PERMISSIVE FOR ALL TO "searchmux_system" USING (true) WITH CHECK (true);--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "usage_counters" AS PERMISSIVE FOR ALL TO "searchmux_app" USING ("usage_counters"."tenant_id" = current_tenant_id()) WITH CHECK ("usage_counters"."tenant_id" = current_tenant_id());--> statement-breakpoint
CREATE POLICY "system_access" ON "usage_counters" AS PERMISSIVE FOR ALL TO "searchmux_system" USING (true) WITH CHECK (true);--> statement-breakpoint
CREATE POLICY "tenant_members" ON "users" AS PERMISSIVE FOR SELECT TO "searchmux_app" USING (exists (select 1 from memberships m where m.user_id = "users"."id"));--> statement-breakpoint
CREATE POLICY "system_access" ON "users" AS PERMISSIVE FOR ALL TO "searchmux_system" USING (true) WITH CHECK (true);--> statement-breakpoint
CREATE POLICY "system_access" ON "verification_tokens" AS PERMISSIVE FOR ALL TO "searchmux_system" USING (true) WITH CHECK (true);