import { defineConfig } from "drizzle-kit";

// Only `generate` is used from drizzle-kit; migrations are applied by lib/db/migrate.ts
// (npm run db:migrate) and by the embedded database on first start.
export default defineConfig({
  dialect: "postgresql",
  schema: process.env.DRIZZLE_SCHEMA ?? "./lib/db/schema.ts",
  out: "./drizzle",
});
