/**
 * Platform: the one database module. Picks the driver from configuration (embedded PGlite served over
 * the wire protocol, node-postgres, or Neon's WebSocket pool) and hides which one is in use: callers
 * only get tenant-scoped or system transactions.
 * May import drivers, drizzle and config; never services, engine or Next.js.
 */
import { Pool as NeonPool, neonConfig } from "@neondatabase/serverless";
import { type SQL, sql } from "drizzle-orm";
import { drizzle as drizzleNeon } from "drizzle-orm/neon-serverless";
import { migrate as migrateNeon } from "drizzle-orm/neon-serverless/migrator";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from "drizzle-orm/pg-core";
import type { ExtractTablesWithRelations } from "drizzle-orm/relations";
import pg from "pg";
import ws from "ws";
import type { DatabaseDriver } from "@/lib/config";
import { log } from "@/lib/observability/logger";
import { embeddedDatabaseUrl } from "./embedded";
import { pendingAfter } from "./migrations";
import * as schema from "./schema";

type Schema = typeof schema;
type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;

export interface Database {
  /** A transaction as `searchmux_app`, where RLS shows only `tenantId`'s rows. */
  withTenant<T>(tenantId: string, fn: (tx: Tx) => Promise<T>): Promise<T>;
  /** A transaction as `searchmux_system`, for the few cross-tenant operations (sign-in, token lookup). */
  withSystem<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  /**
   * One statement in a transaction of its own: one round trip, where withTenant needs four (begin, role,
   * the work, commit). Only for a database function that sets its own role and tenant (admit_fanout).
   */
  callFunction<T>(query: SQL): Promise<T[]>;
  /** Applies pending migrations as the connecting (owner) role. */
  migrate(): Promise<void>;
  /** Tags of the migrations this build has and the database lacks (one query, as the connecting role). */
  pendingMigrations(): Promise<string[]>;
  ping(): Promise<void>;
  close(): Promise<void>;
  /** True once close() was called: nothing can be written any more. */
  readonly closed: boolean;
}

export interface DatabaseOptions {
  driver: DatabaseDriver;
  url?: string;
  dataDir: string;
  /** `host:port/path` of a WebSocket-to-TCP proxy for Neon's driver (local tests, self-hosted proxies). */
  neonWsProxy?: string;
  poolSize?: number;
  /**
   * How long a query waits for a PostgreSQL connection, the pool's queue included, before failing (10 s).
   * Not the embedded server's, which never times out (below).
   */
  connectTimeoutMs?: number;
}

const MIGRATIONS = { migrationsFolder: "drizzle" };
const CONNECT_TIMEOUT_MS = 10_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface Connection {
  db: Db;
  migrate(): Promise<void>;
  end(): Promise<void>;
}

function connectPg(
  url: string,
  poolSize: number,
  embedded: boolean,
  connectTimeoutMs = CONNECT_TIMEOUT_MS,
): Connection {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    // The embedded server exits when no client is connected; an idle pool connection keeps it alive
    // for as long as this process lives, and allowExitOnIdle lets short-lived processes (CLI) exit.
    idleTimeoutMillis: embedded ? 0 : 30_000,
    allowExitOnIdle: true,
    // A server that takes the connection and never answers (hung, or a proxy in front of a dead one)
    // would hold a request forever: the connection fails instead, and the next one is tried afresh. Not
    // the embedded server's: it answers a new connection only once its single session is free, however
    // long the queue before it.
    connectionTimeoutMillis: embedded ? 0 : connectTimeoutMs,
  });
  pool.on("error", (error) => log().error(error, "database pool error"));
  const db = drizzlePg(pool, { schema });
  return { db, migrate: () => migratePg(db, MIGRATIONS), end: () => pool.end() };
}

function connectNeon(url: string, poolSize: number, wsProxy: string | undefined): Connection {
  neonConfig.webSocketConstructor = ws;
  if (wsProxy) {
    neonConfig.wsProxy = (host, port) => `${wsProxy}?address=${host}:${port}`;
    neonConfig.useSecureWebSocket = !/^(127\.|localhost)/.test(wsProxy);
    neonConfig.pipelineTLS = false;
    neonConfig.pipelineConnect = false;
  }
  const pool = new NeonPool({ connectionString: url, max: poolSize });
  pool.on("error", (error: Error) => log().error(error, "database pool error"));
  const db = drizzleNeon(pool, { schema });
  return { db, migrate: () => migrateNeon(db, MIGRATIONS), end: () => pool.end() };
}

async function connect(options: DatabaseOptions): Promise<Connection> {
  const poolSize = options.poolSize ?? 10;
  if (options.driver === "embedded")
    return connectPg(await embeddedDatabaseUrl(options.dataDir), poolSize, true);
  if (!options.url) throw new Error(`DATABASE_URL is required for the ${options.driver} driver`);
  return options.driver === "neon"
    ? connectNeon(options.url, poolSize, options.neonWsProxy)
    : connectPg(options.url, poolSize, false, options.connectTimeoutMs);
}

export async function createDatabase(options: DatabaseOptions): Promise<Database> {
  const { db, migrate, end } = await connect(options);

  function asRole<T>(
    role: "searchmux_app" | "searchmux_system",
    tenantId: string,
    fn: (tx: Tx) => Promise<T>,
  ) {
    return db.transaction(async (tx) => {
      // Both settings are transaction-local, so a pooled connection never carries them to another caller.
      await tx.execute(
        sql`select set_config('role', ${role}, true), set_config('searchmux.tenant_id', ${tenantId}, true)`,
      );
      return fn(tx);
    });
  }

  let closed = false;
  return {
    get closed() {
      return closed;
    },
    withTenant(tenantId, fn) {
      if (!UUID.test(tenantId)) return Promise.reject(new Error("invalid tenant id"));
      return asRole("searchmux_app", tenantId, fn);
    },
    withSystem: (fn) => asRole("searchmux_system", "", fn),
    async callFunction<T>(query: SQL) {
      return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
    },
    migrate,
    async pendingMigrations() {
      const rows = async <T>(query: SQL) => ((await db.execute(query)) as unknown as { rows: T[] }).rows;
      // A database never migrated has no such table: that is an answer, not an error.
      const [table] = await rows<{ present: boolean }>(
        sql`select to_regclass('drizzle.__drizzle_migrations') is not null as present`,
      );
      if (!table?.present) return pendingAfter(null);
      const [applied] = await rows<{ latest: string | null }>(
        sql`select max(created_at)::text as latest from drizzle.__drizzle_migrations`,
      );
      return pendingAfter(applied?.latest ? Number(applied.latest) : null);
    },
    async ping() {
      await db.execute(sql`select 1`);
    },
    close() {
      closed = true;
      return end();
    },
  };
}

/** Raw SQL with typed rows, for the few statements the query builder cannot express (both drivers answer `{ rows }`). */
export async function queryRows<T>(tx: Tx, query: SQL): Promise<T[]> {
  const result = (await tx.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}
