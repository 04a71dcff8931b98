CREATE TYPE "public"."research_status" AS ENUM('queued', 'running', 'succeeded', 'failed', 'cancelled');--> statement-breakpoint
CREATE TABLE "research_jobs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"user_id" uuid,
	"token_id" uuid,
	"token_name" text,
	"surface" "trace_surface" NOT NULL,
	"scopes" text[] NOT NULL,
	"input" jsonb NOT NULL,
	"status" "research_status" DEFAULT 'queued' NOT NULL,
	"progress" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"state" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"report" text,
	"sources" jsonb,
	"partial" boolean DEFAULT false NOT NULL,
	"stop_reason" text,
	"error" text,
	"trace_id" uuid,
	"attempts" integer DEFAULT 0 NOT NULL,
	"lease_owner" text,
	"lease_expires_at" timestamp with time zone,
	"cancel_requested" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "research_jobs" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "research_jobs" ADD CONSTRAINT "research_jobs_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "research_jobs" ADD CONSTRAINT "research_jobs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "research_jobs" ADD CONSTRAINT "research_jobs_token_id_api_tokens_id_fk" FOREIGN KEY ("token_id") REFERENCES "public"."api_tokens"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "research_jobs_tenant_created_idx" ON "research_jobs" USING btree ("tenant_id","created_at");--> statement-breakpoint
CREATE INDEX "research_jobs_claimable_idx" ON "research_jobs" USING btree ("status","lease_expires_at");--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "research_jobs" AS PERMISSIVE FOR ALL TO "searchmux_app" USING ("research_jobs"."tenant_id" = current_tenant_id()) WITH CHECK ("research_jobs"."tenant_id" = current_tenant_id());--> statement-breakpoint
CREATE POLICY "system_access" ON "research_jobs" AS PERMISSIVE FOR ALL TO "searchmux_system" USING (true) WITH CHECK (true);--> statement-breakpoint
ALTER TABLE "research_jobs" FORCE ROW LEVEL SECURITY;