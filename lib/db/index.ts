/**
 * The process-wide database, created from configuration on first use. Kept on globalThis so that
 * Next.js hot reloads in development reuse one pool instead of opening a new one per reload.
 */
import { config } from "@/lib/config";
import { createDatabase, type Database } from "./client";

export type { Database, Tx } from "./client";
export { queryRows } from "./client";

const holder = globalThis as typeof globalThis & { searchmuxDatabase?: Promise<Database> };

export function getDatabase(): Promise<Database> {
  if (!holder.searchmuxDatabase) {
    const { database, dataDir } = config();
    holder.searchmuxDatabase = createDatabase({ ...database, dataDir }).catch((error: unknown) => {
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
