-- A connected app's calls keep their app: the grant of the access token that made each one, written with the
-- trace. Access tokens are deleted a day after they expire (their token_id then becomes null), so a connected
-- app's spend this month is counted by grant_id (lib/services/usage/connection-spend.ts).
ALTER TABLE "traces" ADD COLUMN "grant_id" uuid;--> statement-breakpoint
ALTER TABLE "traces" ADD CONSTRAINT "traces_grant_id_oauth_grants_id_fk" FOREIGN KEY ("grant_id") REFERENCES "public"."oauth_grants"("id") ON DELETE set null ON UPDATE no action;
