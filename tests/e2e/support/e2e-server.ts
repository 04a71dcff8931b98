/**
 * The server playwright.config.ts starts (`next build && next start`, fresh embedded database) as the
 * specs see it: its URL, its data directory, and tenants seeded into that data.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { SeedResult, SeedSpec } from "./seed-spec";

export const BASE_URL = `http://localhost:${Number(process.env.E2E_PORT ?? 3199)}`;

/** The server's SEARCHMUX_DATA_DIR, which playwright.config.ts creates once and exports to the workers. */
export function serverDataDir(): string {
  const dir = process.env.E2E_DATA_DIR;
  if (!dir) throw new Error("E2E_DATA_DIR is not set: run the specs through playwright.config.ts");
  return dir;
}

const run = promisify(execFile);

/** Creates a tenant with tokens (and budgets) in the running server's data; returns the secrets. */
export async function seedTenant(spec: SeedSpec): Promise<SeedResult> {
  const { stdout } = await run("npx", ["tsx", "tests/e2e/support/seed-tenant.ts", JSON.stringify(spec)], {
    env: {
      ...process.env,
      SEARCHMUX_DATA_DIR: serverDataDir(),
      DATABASE_URL: "",
      REDIS_URL: "",
      KV_REST_API_URL: "",
      KV_REST_API_TOKEN: "",
    },
    timeout: 60_000,
  });
  const last = stdout.trim().split("\n").at(-1) ?? "";
  return JSON.parse(last) as SeedResult;
}
