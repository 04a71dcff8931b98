-- What a web_search that names neither `mode` nor `providers` runs as. Workspaces that exist now keep the
-- fan-out they have always had; workspaces created from now on start in auto mode.
CREATE TYPE "public"."default_search_mode" AS ENUM('fanout', 'auto', 'budget');--> statement-breakpoint
ALTER TABLE "tenants" ADD COLUMN "default_search_mode" "default_search_mode" DEFAULT 'fanout' NOT NULL;--> statement-breakpoint
ALTER TABLE "tenants" ALTER COLUMN "default_search_mode" SET DEFAULT 'auto';
