-- A connection's profile: the tools a token (or a connected app, on its grant) lists and may call, and its
-- default arguments per tool (lib/tools/profile.ts). Null: every tool its scopes allow, no defaults.
ALTER TABLE "api_tokens" ADD COLUMN "profile" jsonb;--> statement-breakpoint
ALTER TABLE "oauth_grants" ADD COLUMN "profile" jsonb;
