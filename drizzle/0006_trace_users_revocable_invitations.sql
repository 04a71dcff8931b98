ALTER TABLE "invitations" ADD COLUMN "revoked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "traces" ADD COLUMN "user_id" uuid;--> statement-breakpoint
ALTER TABLE "traces" ADD CONSTRAINT "traces_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "traces_tenant_user_created_idx" ON "traces" USING btree ("tenant_id","user_id","created_at");--> statement-breakpoint
-- Calls made with a token before traces named their member belong to the token's creator. Run as the
-- system role: RLS is forced on traces, even for their owner.
SET ROLE searchmux_system;--> statement-breakpoint
UPDATE "traces" AS t SET "user_id" = k."created_by" FROM "api_tokens" AS k WHERE t."token_id" = k."id" AND t."user_id" IS NULL;--> statement-breakpoint
RESET ROLE;
