/** `npm run db:migrate`: applies pending migrations in drizzle/ to the configured database. */
import { getDatabase } from "@/lib/db";

const db = await getDatabase();
await db.migrate();
await db.close();
console.log("migrations applied");
