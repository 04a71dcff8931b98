/**
 * vitest's global setup: one migrated database per run for each target, which every test's database starts
 * from (tests/support/database.ts). Creating a PGlite cluster and migrating it takes 6–25 s depending on
 * the machine's load, copying a migrated one a second or a few; on PostgreSQL a database made from a
 * migrated template skips the migrations' second. A hundred test files each create one or more. The copy is
 * the database the slow path would make: migrations still run on it (and find nothing pending).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { createDatabase } from "@/lib/db/client";
import { emptyPostgresDatabase, PGLITE_TEMPLATE_ENV, POSTGRES_TEMPLATE_ENV } from "./database";

async function pgliteTemplate(): Promise<() => void> {
  const dir = mkdtempSync(path.join(tmpdir(), "smx-template-"));
  const pgdata = path.join(dir, "pgdata");
  const db = await PGlite.create(pgdata);
  await migrate(drizzle(db), { migrationsFolder: "drizzle" });
  await db.close();
  process.env[PGLITE_TEMPLATE_ENV] = pgdata;
  return () => rmSync(dir, { recursive: true, force: true });
}

async function postgresTemplate(adminUrl: string): Promise<() => Promise<void>> {
  const template = await emptyPostgresDatabase(adminUrl);
  const db = await createDatabase({ driver: "pg", url: template.url, dataDir: tmpdir(), poolSize: 1 });
  try {
    await db.migrate();
  } finally {
    // A template takes no connections while databases are made from it.
    await db.close();
  }
  process.env[POSTGRES_TEMPLATE_ENV] = template.name;
  return template.drop;
}

export default async function makeTemplates(): Promise<() => Promise<void>> {
  const adminUrl = process.env.DATABASE_URL?.trim();
  const removals = await Promise.all([pgliteTemplate(), ...(adminUrl ? [postgresTemplate(adminUrl)] : [])]);
  return async () => {
    for (const remove of removals) await remove();
  };
}
