import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiTokens, tenants } from "@/lib/db/schema";
import { REPO_ROOT } from "@/tests/reliability/support/production-build";
import { databaseTargets, type TestDatabase, withRawClient } from "@/tests/support/database";

const TABLES = [
  "users",
  "accounts",
  "sessions",
  "verification_tokens",
  "tenants",
  "memberships",
  "api_tokens",
  "provider_keys",
  "budgets",
  "usage_counters",
  "reservations",
  "traces",
  "trace_spans",
  "audit_log",
  "budget_alerts",
  "invitations",
  "lenses",
  "oauth_clients",
  "oauth_grants",
  "oauth_codes",
  "oauth_refresh_tokens",
  "research_jobs",
  "key_checks",
  "webhooks",
  "webhook_deliveries",
];
/** Every migration of drizzle/ (its journal lists them), so a new one needs no edit here. */
const MIGRATIONS = (
  JSON.parse(readFileSync(path.join(REPO_ROOT, "drizzle/meta/_journal.json"), "utf8")) as {
    entries: unknown[];
  }
).entries.length;

describe.each(databaseTargets())("database on $name", (target) => {
  let t: TestDatabase;
  let tenantA: string;
  let tenantB: string;

  beforeAll(async () => {
    t = await target.create({ poolSize: 2 });
    const rows = await t.db.withSystem((tx) =>
      tx
        .insert(tenants)
        .values([{ name: "A" }, { name: "B" }])
        .returning({ id: tenants.id }),
    );
    [tenantA, tenantB] = rows.map((row) => row.id) as [string, string];
    await t.db.withSystem((tx) =>
      tx.insert(apiTokens).values(
        [tenantA, tenantB].map((tenantId, i) => ({
          tenantId,
          name: `token-${i === 0 ? "A" : "B"}`,
          scopes: ["search"],
          tokenHash: `hash-${tenantId}`,
          displayStart: "smx_abcd",
          last4: "wxyz",
        })),
      ),
    );
  });
  afterAll(async () => t?.cleanup());

  it("applies every migration from empty and creates the whole data model", async () => {
    await withRawClient(t.url, async (client) => {
      const applied = await client.query("select count(*)::int as n from drizzle.__drizzle_migrations");
      expect(applied.rows[0].n).toBe(MIGRATIONS);
      const tables = await client.query(
        "select tablename from pg_tables where schemaname = 'public' order by tablename",
      );
      expect(tables.rows.map((r) => r.tablename).sort()).toEqual([...TABLES].sort());
    });
  });

  it("applies migrations twice without harm", async () => {
    await t.db.migrate();
    await withRawClient(t.url, async (client) => {
      const applied = await client.query("select count(*)::int as n from drizzle.__drizzle_migrations");
      expect(applied.rows[0].n).toBe(MIGRATIONS);
    });
    const names = await t.db.withSystem((tx) => tx.select({ name: tenants.name }).from(tenants));
    expect(names.map((n) => n.name).sort()).toEqual(["A", "B"]);
  });

  it("forces RLS on every table, and the app roles neither own tables nor bypass RLS", async () => {
    await withRawClient(t.url, async (client) => {
      const rls = await client.query(
        `select c.relname, c.relrowsecurity, c.relforcerowsecurity, pg_get_userbyid(c.relowner) as owner
           from pg_class c join pg_namespace n on n.oid = c.relnamespace
          where n.nspname = 'public' and c.relkind = 'r'`,
      );
      expect(rls.rows).toHaveLength(TABLES.length);
      for (const row of rls.rows) {
        expect({ table: row.relname, rls: row.relrowsecurity, force: row.relforcerowsecurity }).toEqual({
          table: row.relname,
          rls: true,
          force: true,
        });
        expect(row.owner).not.toMatch(/^searchmux_/);
      }
      const roles = await client.query(
        "select rolname, rolbypassrls, rolsuper from pg_roles where rolname like 'searchmux_%' order by rolname",
      );
      expect(roles.rows).toEqual([
        { rolname: "searchmux_app", rolbypassrls: false, rolsuper: false },
        { rolname: "searchmux_system", rolbypassrls: false, rolsuper: false },
      ]);
    });
  });

  it("shows the app role nothing without a tenant setting, and refuses a foreign tenant_id", async () => {
    await withRawClient(t.url, async (client) => {
      await client.query("begin");
      await client.query("set local role searchmux_app");
      const visible = await client.query("select count(*)::int as n from api_tokens");
      expect(visible.rows[0].n).toBe(0);
      await client.query("rollback");

      await client.query("begin");
      await client.query(
        "select set_config('role', 'searchmux_app', true), set_config('searchmux.tenant_id', $1, true)",
        [tenantA],
      );
      const insertForeign = client.query(
        "insert into api_tokens (tenant_id, name, scopes, token_hash, display_start, last4) values ($1, 'x', '{search}', 'h-foreign', 'smx_', '0000')",
        [tenantB],
      );
      await expect(insertForeign).rejects.toThrow(/row-level security/);
      await client.query("rollback");
    });
  });

  it("keeps 200 interleaved tenant transactions on a 2-connection pool apart", async () => {
    const runs = Array.from({ length: 200 }, (_, i) => {
      const tenantId = i % 2 === 0 ? tenantA : tenantB;
      return t.db
        .withTenant(tenantId, (tx) => tx.select({ tenantId: apiTokens.tenantId }).from(apiTokens))
        .then((rows) => rows.every((row) => row.tenantId === tenantId) && rows.length === 1);
    });
    const results = await Promise.all(runs);
    expect(results.filter((ok) => !ok)).toHaveLength(0);
  });

  it("rolls a failed tenant transaction back", async () => {
    const attempt = t.db.withTenant(tenantA, async (tx) => {
      await tx.update(tenants).set({ name: "renamed" });
      throw new Error("abort");
    });
    await expect(attempt).rejects.toThrow("abort");
    const [row] = await t.db.withTenant(tenantA, (tx) => tx.select({ name: tenants.name }).from(tenants));
    expect(row?.name).toBe("A");
  });

  it("rejects a tenant id that is not a uuid before touching the database", async () => {
    await expect(t.db.withTenant("' or 1=1 --", async () => 1)).rejects.toThrow("invalid tenant id");
  });
});
