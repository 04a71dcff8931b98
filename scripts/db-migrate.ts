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

/**
 * What went wrong, in one line when it is a privilege the migrating user lacks: the first migration
 * creates the cluster-wide roles the app switches to (docs/deployment.md, "Database privileges").
 */
function failure(error: unknown): string {
  const cause = error instanceof Error ? error.cause : undefined;
  if (cause instanceof Error && (cause as { code?: string }).code === "42501") {
    return (
      `${cause.message}. The migrating user needs CREATEROLE, or an administrator creates the roles ` +
      "searchmux_app and searchmux_system and grants them to it WITH ADMIN OPTION first " +
      '(docs/deployment.md, "Database privileges")'
    );
  }
  return error instanceof Error ? error.message : String(error);
}

announceDatabase();
try {
  console.log(await migrate());
} catch (error) {
  console.error(`error: ${failure(error)}`);
  process.exitCode = 1;
}
