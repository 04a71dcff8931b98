CREATE TYPE "public"."budget_alert_kind" AS ENUM('soft_limit', 'exhausted');--> statement-breakpoint
CREATE TABLE "budget_alerts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"budget_id" uuid NOT NULL,
	"kind" "budget_alert_kind" NOT NULL,
	"period_key" text NOT NULL,
	"used" bigint NOT NULL,
	"limit" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "budget_alerts" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE TABLE "invitations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"tenant_id" uuid NOT NULL,
	"email" text NOT NULL,
	"role" "membership_role" NOT NULL,
	"token_hash" text NOT NULL,
	"created_by" uuid,
	"expires_at" timestamp with time zone NOT NULL,
	"accepted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "invitations" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "reservations" ADD COLUMN "charges" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "reservations" ALTER COLUMN "charges" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "rate_limit_rpm" integer;--> statement-breakpoint
ALTER TABLE "budget_alerts" ADD CONSTRAINT "budget_alerts_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "budget_alerts" ADD CONSTRAINT "budget_alerts_budget_id_budgets_id_fk" FOREIGN KEY ("budget_id") REFERENCES "public"."budgets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_tenant_id_tenants_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."tenants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "budget_alerts_once_idx" ON "budget_alerts" USING btree ("tenant_id","budget_id","kind","period_key");--> statement-breakpoint
CREATE UNIQUE INDEX "invitations_token_idx" ON "invitations" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "invitations_tenant_idx" ON "invitations" USING btree ("tenant_id","created_at");--> statement-breakpoint
ALTER TABLE "reservations" DROP COLUMN "metric";--> statement-breakpoint
ALTER TABLE "reservations" DROP COLUMN "period_key";--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "budget_alerts" AS PERMISSIVE FOR ALL TO "searchmux_app" USING ("budget_alerts"."tenant_id" = current_tenant_id()) WITH CHECK ("budget_alerts"."tenant_id" = current_tenant_id());--> statement-breakpoint
CREATE POLICY "system_access" ON "budget_alerts" AS PERMISSIVE FOR ALL TO "searchmux_system" USING (true) WITH CHECK (true);--> statement-breakpoint
CREATE POLICY "tenant_isolation" ON "invitations" AS PERMISSIVE FOR ALL TO "searchmux_app" USING ("invitations"."tenant_id" = current_tenant_id()) WITH CHECK ("invitations"."tenant_id" = current_tenant_id());--> statement-breakpoint
CREATE POLICY "system_access" ON "invitations" AS PERMISSIVE FOR ALL TO "searchmux_system" USING (true) WITH CHECK (true);--> statement-breakpoint
ALTER TABLE "budget_alerts" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "invitations" FORCE ROW LEVEL SECURITY;
