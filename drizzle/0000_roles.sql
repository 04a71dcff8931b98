-- Roles the application switches to per transaction (SET LOCAL ROLE): neither owns the tables nor
-- bypasses RLS. Roles are cluster-wide, so creation is idempotent across databases.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'searchmux_app') THEN
    CREATE ROLE searchmux_app NOLOGIN NOBYPASSRLS;
  END IF;
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'searchmux_system') THEN
    CREATE ROLE searchmux_system NOLOGIN NOBYPASSRLS;
  END IF;
END
$$;--> statement-breakpoint
-- The connecting (migrating) user must be able to SET ROLE to both.
GRANT searchmux_app TO CURRENT_USER;--> statement-breakpoint
GRANT searchmux_system TO CURRENT_USER;--> statement-breakpoint
GRANT USAGE ON SCHEMA public TO searchmux_app, searchmux_system;--> statement-breakpoint
-- The tenant of the current transaction; NULL (so no row matches) when unset or reset to ''.
CREATE OR REPLACE FUNCTION current_tenant_id() RETURNS uuid
  LANGUAGE sql STABLE
  AS $$ SELECT NULLIF(current_setting('searchmux.tenant_id', true), '')::uuid $$;
