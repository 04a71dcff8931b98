/**
 * The privileges `npm run db:migrate` needs (docs/deployment.md, "Database privileges"): the first
 * migration creates the cluster-wide roles the app switches to and grants them to the migrating user. A
 * user without CREATEROLE is told so in one line with what to do; once an administrator has created the
 * roles and granted them to that user WITH ADMIN OPTION, the same user migrates, and the app it runs
 * serves (ready, and a workspace's rows behind row-level security). Needs a PostgreSQL role that may create
 * roles and databases (DATABASE_URL, as on CI); every role and database it makes is dropped afterwards.
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase, type Database } from "@/lib/db/client";
import { createMemoryKv } from "@/lib/kv/memory";
import { parseKeyring } from "@/lib/pipeline/keys/key-encryption";
import { checkReadiness } from "@/lib/services/health/check-readiness";
import { createTenant } from "@/lib/services/tenants/create-tenant";
import { withRawClient } from "@/tests/support/database";
import { systemCtx, testPlatform } from "@/tests/support/platform";

const run = promisify(execFile);
const adminUrl = process.env.DATABASE_URL?.trim();

describe.runIf(adminUrl)("migrating without CREATEROLE", () => {
  const suffix = randomBytes(5).toString("hex");
  const user = `smx_migrator_${suffix}`;
  const database = `smx_priv_${suffix}`;
  const password = randomBytes(12).toString("hex");
  const dataDir = mkdtempSync(path.join(tmpdir(), "smx-privileges-"));
  const asAdmin = (statement: string) =>
    withRawClient(adminUrl as string, (client) => client.query(statement));
  let url = "";

  const migrate = () =>
    run(process.execPath, ["--import", "tsx", path.resolve("scripts/db-migrate.ts")], {
      env: {
        PATH: process.env.PATH ?? "",
        NODE_ENV: "production",
        DATABASE_URL: url,
        SEARCHMUX_DATA_DIR: dataDir,
      },
    }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout: stdout.trim(), stderr: stderr.trim() }),
      (error: { code: number; stdout: string; stderr: string }) => ({
        code: error.code,
        stdout: error.stdout.trim(),
        stderr: error.stderr.trim(),
      }),
    );

  beforeAll(async () => {
    await asAdmin(`create role ${user} login password '${password}'`);
    await asAdmin(`create database ${database} owner ${user}`);
    const target = new URL(adminUrl as string);
    target.username = user;
    target.password = password;
    target.pathname = `/${database}`;
    url = target.toString();
  });
  afterAll(async () => {
    await asAdmin(`drop database if exists ${database} with (force)`);
    await asAdmin(`drop role if exists ${user}`);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("says in one line what the migrating user lacks and what an administrator can do instead", async () => {
    const outcome = await migrate();
    expect(outcome.code).toBe(1);
    const error = outcome.stderr.split("\n").filter((line) => line.startsWith("error: "));
    expect(error).toEqual([
      expect.stringMatching(
        /^error: .+\. The migrating user needs CREATEROLE, or an administrator creates the roles searchmux_app and searchmux_system and grants them to it WITH ADMIN OPTION first/,
      ),
    ]);
    expect(outcome.stderr).not.toContain(password);
  });

  it("migrates once the roles exist and are granted with ADMIN OPTION, and the app then serves", async () => {
    // What the administrator runs (docs/deployment.md); the roles may exist already, cluster-wide.
    await asAdmin(`do $$ begin
      if not exists (select 1 from pg_roles where rolname = 'searchmux_app') then create role searchmux_app nologin nobypassrls; end if;
      if not exists (select 1 from pg_roles where rolname = 'searchmux_system') then create role searchmux_system nologin nobypassrls; end if;
    end $$`);
    await asAdmin(`grant searchmux_app, searchmux_system to ${user} with admin option`);
    const outcome = await migrate();
    expect(outcome).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/^migrations applied: 0000_roles, /),
    });

    const db: Database = await createDatabase({ driver: "pg", url, dataDir });
    const kv = createMemoryKv();
    try {
      const platform = testPlatform(db, {
        kv,
        keyring: parseKeyring(`1:${randomBytes(32).toString("base64")}`),
      });
      expect(
        await checkReadiness({ ctx: { db: async () => db, kv: () => kv, keyring: () => platform.keyring } }),
      ).toEqual({ status: "ok", db: "ok", kv: "ok", secret_key: "ok" });
      const tenant = await createTenant({ ctx: systemCtx(platform), input: { name: "least privilege" } });
      expect(tenant.id).toMatch(/^[0-9a-f-]{36}$/);
    } finally {
      await kv.close();
      await db.close();
    }
  });
});
