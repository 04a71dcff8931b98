/**
 * Fresh databases for integration tests: always embedded PGlite (a new data directory, served by the
 * real embedded server), and the machine's PostgreSQL when DATABASE_URL is set (a new database per
 * call, dropped afterwards).
 */
import { randomBytes } from "node:crypto";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { createDatabase, type Database, type DatabaseOptions } from "@/lib/db/client";
import { embeddedDatabaseUrl } from "@/lib/db/embedded";

/**
 * The variables naming vitest's migrated templates (a pgdata directory; a database name), set by its global
 * setup (database-template.ts) and read by the processes it forks. Unset elsewhere: databases made anew.
 */
export const PGLITE_TEMPLATE_ENV = "SMX_TEST_PGLITE_TEMPLATE";
export const POSTGRES_TEMPLATE_ENV = "SMX_TEST_POSTGRES_TEMPLATE";

export interface TestDatabase {
  db: Database;
  /** Connection URL for raw queries as the connecting (owner) role. */
  url: string;
  cleanup(): Promise<void>;
}

export interface DatabaseTarget {
  name: "pglite" | "postgres";
  /** A new, migrated database; `driver` lets a test pick Neon's driver for the same server. */
  create(
    options?: Partial<Pick<DatabaseOptions, "driver" | "neonWsProxy" | "poolSize" | "connectTimeoutMs">>,
  ): Promise<TestDatabase>;
}

/** Stops the embedded server of a data directory (tests own their directories). */
export function stopEmbeddedServer(dataDir: string): void {
  try {
    const { pid } = JSON.parse(readFileSync(path.join(dataDir, "server.json"), "utf8")) as { pid: number };
    process.kill(pid, "SIGTERM");
  } catch {
    // not running
  }
}

/**
 * A new data directory (SEARCHMUX_DATA_DIR) under the system's temporary folder. Under vitest it holds a copy
 * of the run's migrated embedded database (database-template.ts), which the embedded server opens instead of
 * creating one: the same database, seconds sooner.
 */
export function newDataDir(prefix: string): string {
  const dataDir = mkdtempSync(path.join(tmpdir(), prefix));
  const template = process.env[PGLITE_TEMPLATE_ENV];
  if (template && existsSync(template)) cpSync(template, path.join(dataDir, "pgdata"), { recursive: true });
  return dataDir;
}

const pglite: DatabaseTarget = {
  name: "pglite",
  async create(options) {
    const dataDir = newDataDir("smx-test-");
    const db = await createDatabase({ driver: "embedded", dataDir, poolSize: options?.poolSize ?? 4 });
    return {
      db,
      url: await embeddedDatabaseUrl(dataDir),
      async cleanup() {
        await db.close();
        stopEmbeddedServer(dataDir);
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  },
};

export interface EmptyDatabase {
  /** Its name, and its URL: `adminUrl`'s server and credentials. */
  name: string;
  url: string;
  drop(): Promise<void>;
}

/**
 * A new database on the server of `adminUrl` (whose role may create databases): empty, or a copy of the
 * database named `template`.
 */
export async function emptyPostgresDatabase(adminUrl: string, template?: string): Promise<EmptyDatabase> {
  const name = `smx_test_${randomBytes(6).toString("hex")}`;
  const asAdmin = (statement: string) => withRawClient(adminUrl, (client) => client.query(statement));
  await asAdmin(`create database ${name}${template ? ` template ${template}` : ""}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: async () => void (await asAdmin(`drop database if exists ${name} with (force)`)),
  };
}

function postgres(adminUrl: string): DatabaseTarget {
  return {
    name: "postgres",
    async create(options) {
      // Under vitest, a copy of the run's migrated template (database-template.ts).
      const empty = await emptyPostgresDatabase(adminUrl, process.env[POSTGRES_TEMPLATE_ENV]);
      const db = await createDatabase({
        driver: options?.driver ?? "pg",
        url: empty.url,
        dataDir: tmpdir(),
        neonWsProxy: options?.neonWsProxy,
        poolSize: options?.poolSize ?? 4,
        connectTimeoutMs: options?.connectTimeoutMs,
      });
      await db.migrate();
      return {
        db,
        url: empty.url,
        async cleanup() {
          await db.close();
          await empty.drop();
        },
      };
    },
  };
}

export function databaseTargets(): DatabaseTarget[] {
  const url = process.env.DATABASE_URL?.trim();
  return url ? [pglite, postgres(url)] : [pglite];
}

/**
 * For tests whose subject is a tool's behaviour rather than the data layer's: the one target a deployment
 * here would use, PostgreSQL when DATABASE_URL is set, else embedded PGlite. The data layer's own tests
 * (budgets, tenancy, keys, traces, jobs, migrations) run on every target, and the end-to-end server on PGlite.
 */
export function primaryTarget(): DatabaseTarget[] {
  return databaseTargets().slice(-1);
}

/** Runs `fn` on a raw connection as the connecting role, for catalog checks and RLS probes. */
export async function withRawClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
