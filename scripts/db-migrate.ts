/**
 * `npm run db:migrate`: applies pending migrations in drizzle/ to the configured database (`.env` files
 * read as Next.js reads them), saying which database and what it applied. Needs no secrets: it only
 * changes the schema, so CI can run it with DATABASE_URL alone.
 */
import { config } from "@/lib/config";
import { createDatabase } from "@/lib/db/client";
import { announceDatabase } from "./load-env";

async function migrate(): Promise<string> {
  const { database, dataDir } = config();
  const db = await createDatabase({ ...database, dataDir });
  try {
    const pending = await db.pendingMigrations();
    await db.migrate();
    return pending.length > 0 ? `migrations applied: ${pending.join(", ")}` : "the database is up to date";
  } finally {
    await db.close();
  }
}

announceDatabase();
try {
  console.log(await migrate());
} catch (error) {
  console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
