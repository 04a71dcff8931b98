/**
 * The process-wide database, created from configuration on first use. Kept on globalThis so that
 * Next.js hot reloads in development reuse one pool instead of opening a new one per reload.
 */
import { config } from "@/lib/config";
import { createDatabase, type Database } from "./client";
import { DatabaseNotMigratedError } from "./migrations";

export type { Database, Tx } from "./client";
export { queryRows } from "./client";
export { DatabaseNotMigratedError } from "./migrations";

const holder = globalThis as typeof globalThis & { searchmuxDatabase?: Promise<Database> };

/**
 * Opens the configured database and checks once that it is migrated, so a command or request against
 * an unmigrated one says how to fix it. A failure is not kept: the next call opens and checks again, and
 * the process recovers once `npm run db:migrate` has run.
 */
async function openMigrated(): Promise<Database> {
  const { database, dataDir } = config();
  const db = await createDatabase({ ...database, dataDir });
  const pending = await db.pendingMigrations().catch(async (error: unknown) => {
    await db.close();
    throw error;
  });
  if (pending.length === 0) return db;
  await db.close();
  throw new DatabaseNotMigratedError(describeDatabase(), pending);
}

export function getDatabase(): Promise<Database> {
  if (!holder.searchmuxDatabase) {
    holder.searchmuxDatabase = openMigrated().catch((error: unknown) => {
      holder.searchmuxDatabase = undefined; // let the next call retry
      throw error;
    });
  }
  return holder.searchmuxDatabase;
}

/** Closes the process-wide database if one was opened (CLI exit, graceful shutdown). */
export async function closeDatabase(): Promise<void> {
  const opened = holder.searchmuxDatabase;
  holder.searchmuxDatabase = undefined;
  await (await opened?.catch(() => undefined))?.close();
}

/**
 * Which database the configuration points at, for people (the CLI, db:migrate, errors): host, port and
 * database name, or the embedded one's data directory. Never the user or password.
 */
export function describeDatabase(): string {
  const { database, dataDir } = config();
  if (database.driver === "embedded") return `embedded at ${dataDir}`;
  const kind = database.driver === "neon" ? "Neon" : "PostgreSQL";
  if (!database.url || !URL.canParse(database.url)) return `${kind} (DATABASE_URL is not a URL)`;
  const url = new URL(database.url);
  return `${kind} at ${url.host}${url.pathname}`;
}
