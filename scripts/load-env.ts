/**
 * Loads `.env` files into process.env the way Next.js does (`@next/env`, which ships with next): from the
 * working directory, `.env.$mode.local`, `.env.local` (not in test), `.env.$mode`, `.env`; the first file
 * to set a variable wins, and the real environment wins over every file. The mode is `test` under
 * NODE_ENV=test, `production` under NODE_ENV=production (the files `npm start` reads), else `development`
 * (those of `npm run dev`). Imported first by the CLI and db:migrate, before any module reads the env.
 */
import nextEnv from "@next/env";
import { describeDatabase } from "@/lib/db";

const { loadedEnvFiles } = nextEnv.loadEnvConfig(process.cwd(), process.env.NODE_ENV !== "production", {
  info: () => {},
  // A file that exists but cannot be read: on stderr, as stdout may carry a command's JSON.
  error: (...args: unknown[]) => console.error(...args),
});

/** Says on stderr which database this process uses and which env files it read (never a password). */
export function announceDatabase(): void {
  const files = loadedEnvFiles.map((file) => file.path);
  const from = files.length > 0 ? ` (env files: ${files.join(", ")})` : "";
  process.stderr.write(`database: ${describeDatabase()}${from}\n`);
}
