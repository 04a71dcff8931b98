-- A check value per key-encryption key version (SEARCHMUX_SECRET_KEY), sealed under that key: an instance
-- whose key of that version differs cannot open it, logs so at start and is not ready (/api/ready).
CREATE TABLE "key_checks" (
	"key_version" smallint PRIMARY KEY NOT NULL,
	"ciphertext" text NOT NULL,
	"iv" text NOT NULL,
	"tag" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "key_checks" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY "system_access" ON "key_checks" AS PERMISSIVE FOR ALL TO "searchmux_system" USING (true) WITH CHECK (true);--> statement-breakpoint
ALTER TABLE "key_checks" FORCE ROW LEVEL SECURITY;