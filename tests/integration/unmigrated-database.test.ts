/**
 * A fresh, empty PostgreSQL database, as a new deployment finds it before `npm run db:migrate`: the CLI
 * and the app say so and how to fix it (instead of "Failed query: select set_config('role', …)"), the CLI
 * reads its DATABASE_URL from `.env` files as Next.js does and names the database without its password,
 * and after the migration the same app process serves without a restart.
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MIGRATIONS } from "@/lib/db/migrations";
import { type EmptyDatabase, emptyPostgresDatabase, withRawClient } from "@/tests/support/database";
import { operatorWorkspace } from "@/tests/support/route-handlers";

const run = promisify(execFile);
const adminUrl = process.env.DATABASE_URL?.trim();
const TSX = path.resolve("node_modules/.bin/tsx");
const PASSWORD = "not-to-be-printed";
const TAGS = MIGRATIONS.map(({ tag }) => tag);

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs a script of scripts/ from `cwd` with `env` alone (plus PATH), as a shell would; `mode` is its
 * NODE_ENV, which picks the `.env.$mode*` files.
 */
async function script(
  name: string,
  args: string[],
  env: Record<string, string>,
  { cwd = process.cwd(), mode = "development" }: { cwd?: string; mode?: "development" | "production" } = {},
) {
  const outcome = await run(TSX, [path.resolve("scripts", name), ...args], {
    cwd,
    env: {
      ...env,
      PATH: process.env.PATH ?? "",
      TSX_TSCONFIG_PATH: path.resolve("tsconfig.json"),
      NODE_ENV: mode,
    },
  }).then(
    ({ stdout, stderr }): Outcome => ({ code: 0, stdout, stderr }),
    (error: Outcome) => error,
  );
  return { code: outcome.code, stdout: outcome.stdout.trim(), stderr: outcome.stderr.trim() };
}

/** GET /api/health of the app in this process. */
async function health(): Promise<{ status: number; body: unknown }> {
  const { GET } = await import("@/app/api/health/route");
  const response = await GET();
  return { status: response.status, body: await response.json() };
}

// Needs a PostgreSQL server whose role may create databases (CI's; the embedded one migrates itself).
describe.runIf(adminUrl)("a database that is not migrated", () => {
  let empty: EmptyDatabase;
  let url: string;
  let described: string;
  const dataDir = mkdtempSync(path.join(tmpdir(), "smx-unmigrated-"));
  const secrets = {
    SEARCHMUX_SECRET_KEY: `1:${randomBytes(32).toString("base64")}`,
    AUTH_SECRET: randomBytes(32).toString("base64"),
  };
  const cliEnv = () => ({ DATABASE_URL: url, SEARCHMUX_DATA_DIR: dataDir, ...secrets });

  beforeAll(async () => {
    empty = await emptyPostgresDatabase(adminUrl as string);
    const withPassword = new URL(empty.url);
    withPassword.password = PASSWORD;
    url = withPassword.toString();
    described = `PostgreSQL at ${withPassword.host}/${empty.name}`;
    // The app of this process, on that database; route modules read the env when first used.
    Object.assign(process.env, {
      DATABASE_URL: url,
      SEARCHMUX_DATA_DIR: dataDir,
      REDIS_URL: "",
      KV_REST_API_URL: "",
      KV_REST_API_TOKEN: "",
      UPSTASH_REDIS_REST_URL: "",
      UPSTASH_REDIS_REST_TOKEN: "",
      ...secrets,
    });
  });
  afterAll(async () => {
    const { closeDatabase } = await import("@/lib/db");
    await closeDatabase();
    await empty?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("the CLI names the database and says to run db:migrate", async () => {
    const cli = await script("smx.ts", ["tenant", "create", "--name", "x"], cliEnv());
    expect(cli.code).toBe(1);
    expect(cli.stderr.split("\n")).toEqual([
      `database: ${described}`,
      `error: The database (${described}) has no migrations applied: run \`npm run db:migrate\` with this configuration, then retry.`,
    ]);
    expect(cli.stderr).not.toContain(PASSWORD);
  });

  it("the CLI refuses a shared database without SEARCHMUX_SECRET_KEY before touching it", async () => {
    const cli = await script("smx.ts", ["tenant", "create", "--name", "x"], {
      DATABASE_URL: url,
      SEARCHMUX_DATA_DIR: dataDir,
    });
    expect(cli.code).toBe(1);
    expect(cli.stderr).toMatch(
      /^searchmux: SEARCHMUX_SECRET_KEY is required when DATABASE_URL is set: .*`openssl rand -base64 32`[^\n]*$/,
    );
  });

  it("the CLI reads DATABASE_URL from the .env files of its working directory, in Next.js's order", async () => {
    const project = mkdtempSync(path.join(tmpdir(), "smx-env-files-"));
    try {
      writeFileSync(
        path.join(project, ".env"),
        `DATABASE_URL=postgres://nobody@127.0.0.1:1/wrong\nSEARCHMUX_SECRET_KEY=${secrets.SEARCHMUX_SECRET_KEY}\n`,
      );
      writeFileSync(path.join(project, ".env.development.local"), `DATABASE_URL=${url}\n`);
      writeFileSync(
        path.join(project, ".env.production"),
        "DATABASE_URL=postgres://nobody@127.0.0.1:1/prod\n",
      );
      const cli = await script(
        "smx.ts",
        ["tenant", "create", "--name", "x"],
        { SEARCHMUX_DATA_DIR: dataDir },
        { cwd: project },
      );
      expect(cli.code).toBe(1);
      const [database, error] = cli.stderr.split("\n");
      expect(database).toBe(`database: ${described} (env files: .env.development.local, .env)`);
      expect(error).toContain("has no migrations applied: run `npm run db:migrate`");

      // NODE_ENV=production reads what `npm start` reads; the real environment wins over every file.
      const production = await script(
        "smx.ts",
        ["tenant", "create", "--name", "x"],
        { SEARCHMUX_DATA_DIR: dataDir },
        { cwd: project, mode: "production" },
      );
      expect(production.stderr.split("\n")[0]).toBe(
        "database: PostgreSQL at 127.0.0.1:1/prod (env files: .env.production, .env)",
      );
      const real = await script("smx.ts", ["tenant", "create", "--name", "x"], cliEnv(), {
        cwd: project,
        mode: "production",
      });
      expect(real.stderr.split("\n")[0]).toBe(`database: ${described} (env files: .env.production, .env)`);
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });

  it("the app's health says so (503), and opening its database fails with the same advice", async () => {
    const { status, body } = await health();
    expect(status).toBe(503);
    expect(body).toMatchObject({
      status: "error",
      db: "error",
      reason: expect.stringContaining(
        `the database is not migrated (missing ${TAGS.join(", ")}): run \`npm run db:migrate\``,
      ),
    });
    const { getDatabase } = await import("@/lib/db");
    await expect(getDatabase()).rejects.toThrow(`The database (${described}) has no migrations applied`);
  });

  it("db:migrate names the database and what it applied; the same app process then serves", async () => {
    const migrate = await script("db-migrate.ts", [], { DATABASE_URL: url, SEARCHMUX_DATA_DIR: dataDir });
    expect(migrate).toEqual({
      code: 0,
      stdout: `migrations applied: ${TAGS.join(", ")}`,
      stderr: `database: ${described}`,
    });
    const again = await script("db-migrate.ts", [], { DATABASE_URL: url, SEARCHMUX_DATA_DIR: dataDir });
    expect(again.stdout).toBe("the database is up to date");

    const { status, body } = await health();
    expect(status).toBe(200);
    expect(body).toMatchObject({
      status: "degraded",
      db: "ok",
      reason:
        "the KV store is in memory next to a shared database: each instance caches and rate-limits on its own",
    });
    // The transaction that used to fail first (set_config('role', …)) now runs: a verb creates a workspace.
    const workspace = await operatorWorkspace("after-migrate");
    expect(workspace.tenantId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("names the migrations a database lacks when it is behind", async () => {
    const latest = TAGS.at(-1);
    await withRawClient(empty.url, (client) =>
      client.query(
        "delete from drizzle.__drizzle_migrations where created_at = (select max(created_at) from drizzle.__drizzle_migrations)",
      ),
    );
    const cli = await script("smx.ts", ["tenant", "create", "--name", "x"], cliEnv());
    expect(cli.code).toBe(1);
    expect(cli.stderr).toContain(
      `error: The database (${described}) lacks 1 of ${TAGS.length} migrations (${latest}): run \`npm run db:migrate\``,
    );
  });
});
