/**
 * The self-hosted server as the Dockerfile builds and runs it (images cannot be pulled here): the shared
 * production build's standalone output put together by scripts/assemble-standalone.mjs (the Dockerfile's
 * build step) in a temporary directory, migrated by its compiled `node dist/db-migrate.mjs` (compose's
 * `migrate` service) and started as `node server.js` (the image's CMD), with the secrets production needs,
 * on a fresh PostgreSQL database (the embedded one without DATABASE_URL) and the tests' Redis, providers at
 * the fake server. Through it: /api/health, the static files, the development sign-in, a token made with
 * the compiled CLI, a search, a PDF read by the worker the standalone output must carry, and a cron job.
 */
import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDatabase, type Database } from "@/lib/db/client";
import { type FakeProviders, startFakeProviders } from "@/tests/fakes/provider-server";
import { type EmptyDatabase, emptyPostgresDatabase, stopEmbeddedServer } from "@/tests/support/database";
import { deleteAppKeys, testRedisUrl } from "@/tests/support/test-redis";
import { makePdf } from "@/tests/unit/fetch/pdf-fixture";
import { type Site, startSite } from "@/tests/unit/fetch/site-server";
import { freePort, type NextServer, startNextServer } from "./support/next-server";
import { ensureProductionBuild, REPO_ROOT } from "./support/production-build";
import { operatorKeyIds, serverEnv } from "./support/server-env";

const run = promisify(execFile);
const adminUrl = process.env.DATABASE_URL?.trim();
const CRON_SECRET = `cron-${randomUUID()}`;
const work = mkdtempSync(path.join(tmpdir(), "smx-standalone-"));
const app = path.join(work, "app");
const dataDir = path.join(work, "data");

let fake: FakeProviders;
let site: Site;
let empty: EmptyDatabase | undefined;
let server: NextServer | undefined;
let env: Record<string, string | undefined>;

/** A compiled command of the image (`node dist/<name>.mjs …`), run where the image runs it. */
const imageCommand = (name: string, args: string[]) =>
  run(process.execPath, [path.join(app, "dist", `${name}.mjs`), ...args], {
    cwd: app,
    env: { ...process.env, ...env, NODE_ENV: "production" },
    timeout: 60_000,
  });

beforeAll(async () => {
  await ensureProductionBuild();
  await run(process.execPath, [path.join(REPO_ROOT, "scripts/assemble-standalone.mjs"), app], {
    timeout: 120_000,
  });
  fake = await startFakeProviders();
  site = await startSite({
    "/paper.pdf": {
      headers: { "content-type": "application/pdf" },
      body: makePdf([["Standalone servers parse PDFs in a worker"]], "Standalone"),
    },
  });
  empty = adminUrl ? await emptyPostgresDatabase(adminUrl) : undefined;
  const port = await freePort();
  env = serverEnv({
    fakeOrigin: fake.url,
    databaseUrl: empty?.url ?? "",
    redisUrl: testRedisUrl(),
    dataDir,
    keyedProviders: ["brave"],
    extra: {
      AUTH_URL: `http://127.0.0.1:${port}`,
      AUTH_DEV_LOGIN: "1",
      AUTH_DEV_LOGIN_ALLOW_PRODUCTION: "1",
      CRON_SECRET,
      LOG_LEVEL: "warn",
    },
  });
  if (empty) {
    const { stdout } = await imageCommand("db-migrate", []);
    expect(stdout).toMatch(/^migrations applied: 0000_roles, /m);
  }
  server = await startNextServer({ env, port, standaloneDir: app, readyTimeoutMs: 120_000 });
}, 600_000);

afterAll(async () => {
  await server?.stop();
  const db: Database = await createDatabase(
    empty ? { driver: "pg", url: empty.url, dataDir } : { driver: "embedded", dataDir },
  );
  await deleteAppKeys(db, operatorKeyIds(["brave"])).finally(() => db.close());
  await empty?.drop();
  stopEmbeddedServer(dataDir);
  await Promise.all([fake?.close(), site?.close()]);
  rmSync(work, { recursive: true, force: true });
}, 60_000);

describe(`the standalone server (node server.js) on ${adminUrl ? "PostgreSQL" : "the embedded database"}`, () => {
  it("is what the Dockerfile assembles and runs", () => {
    const dockerfile = readFileSync(path.join(REPO_ROOT, "Dockerfile"), "utf8");
    expect(dockerfile).toContain(
      "RUN SEARCHMUX_STANDALONE=1 npm run build && node scripts/assemble-standalone.mjs /app",
    );
    expect(dockerfile).toContain('CMD ["node", "server.js"]');
    // The health check is readiness: a proxy following it sends an instance whose Redis is down no traffic.
    expect(dockerfile).toMatch(/HEALTHCHECK [^\n]*\n[^\n]*\/api\/ready/);
    const compose = readFileSync(path.join(REPO_ROOT, "compose.yaml"), "utf8");
    expect(compose).toContain('command: ["node", "dist/db-migrate.mjs"]');
    expect(compose).toContain("/api/ready");
    expect(compose).not.toMatch(/image: [^\n]*:latest/);
  });

  it("carries what it reads by path at run time", () => {
    for (const file of [
      "lib/engine/fetch/extract/pdf-worker.mjs",
      "node_modules/unpdf/package.json",
      "lib/engine/extract/schema-worker.mjs",
      ".workers/html-worker.mjs",
      "node_modules/ajv/dist/2020.js",
      "drizzle/0000_roles.sql",
      "drizzle/meta/_journal.json",
      "lib/db/embedded-server.mjs",
      "node_modules/drizzle-orm/pglite/migrator.js",
      "public/favicon.ico",
    ]) {
      expect.soft(existsSync(path.join(app, file)), file).toBe(true);
    }
    const pglite = readdirSync(path.join(app, "node_modules/@electric-sql/pglite/dist"));
    expect(pglite.some((file) => file.endsWith(".wasm"))).toBe(true);
    // Sources and tests stay out of the image, and so does sharp (no next/image, no optimizer).
    expect(existsSync(path.join(app, "tests"))).toBe(false);
    expect(existsSync(path.join(app, "node_modules/sharp"))).toBe(false);
    expect(existsSync(path.join(app, "node_modules/@img"))).toBe(false);
    expect(existsSync(path.join(app, "lib/pipeline/platform.ts"))).toBe(false);
  });

  it("answers /api/health and /api/ready, and serves the static files", async () => {
    const url = (server as NextServer).url;
    const health = await fetch(`${url}/api/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ db: "ok", kv: "ok" });
    const ready = await fetch(`${url}/api/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: "ok", db: "ok", kv: "ok", secret_key: "ok" });
    const page = await (await fetch(`${url}/signin`)).text();
    const asset = /\/_next\/static\/[^"]+\.(?:js|css)/.exec(page)?.[0];
    expect(asset).toBeDefined();
    expect((await fetch(`${url}${asset}`)).status).toBe(200);
    const favicon = await fetch(`${url}/favicon.ico`);
    expect(favicon.status).toBe(200);
    expect(favicon.headers.get("content-type")).toBe("image/x-icon");
    expect(await (await fetch(`${url}/robots.txt`)).text()).toContain("Disallow: /dashboard");
  });

  it("signs in, and searches and reads a PDF with a token made by the compiled CLI", async () => {
    const url = (server as NextServer).url;
    const session = await devSignIn(url);
    expect(session).toMatchObject({ role: "owner", user: { email: "dev@searchmux.local" } });
    const dashboard = await fetch(`${url}/dashboard`, {
      headers: { cookie: session.cookie },
      redirect: "manual",
    });
    expect(dashboard.status).toBe(200);

    const { stdout } = await imageCommand("smx", [
      "token",
      "create",
      "--tenant",
      session.tenantId,
      "--name",
      "standalone",
    ]);
    const token = /smx_\S+/.exec(stdout)?.[0] as string;
    const call = (tool: string, body: unknown) =>
      fetch(`${url}/api/v1/${tool}`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });

    const search = await call("search", { query: "standalone search", providers: ["brave"] });
    expect(search.status).toBe(200);
    const found = (await search.json()) as {
      results: unknown[];
      providers_succeeded: Array<{ provider: string }>;
    };
    expect(found.providers_succeeded.map((p) => p.provider)).toEqual(["brave"]);
    expect(found.results.length).toBeGreaterThan(0);
    expect(fake.requests("brave").length).toBe(1);

    const read = await call("fetch", { url: `${site.url}/paper.pdf`, max_chars: 2_000 });
    expect(read.status).toBe(200);
    expect(((await read.json()) as { content: string }).content).toContain(
      "Standalone servers parse PDFs in a worker",
    );
  });

  it("runs a cron job with CRON_SECRET", async () => {
    const url = (server as NextServer).url;
    expect((await fetch(`${url}/api/cron/prune-traces`)).status).toBe(401);
    const job = await fetch(`${url}/api/cron/prune-traces`, {
      headers: { authorization: `Bearer ${CRON_SECRET}` },
    });
    expect(await job.json()).toMatchObject({ job: "prune-traces", ran: true });
  });
});

/** next-auth's credentials flow as a browser runs it: CSRF token, the development provider, the session. */
async function devSignIn(url: string) {
  const csrf = await fetch(`${url}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const jar = new Map<string, string>();
  const keep = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ""] = line.split(";");
      const at = pair.indexOf("=");
      jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
  };
  const cookie = () => [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
  keep(csrf);
  const callback = await fetch(`${url}/api/auth/callback/dev`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookie() },
    body: new URLSearchParams({ csrfToken, json: "true", callbackUrl: `${url}/dashboard` }),
    redirect: "manual",
  });
  keep(callback);
  expect(jar.has("next-auth.session-token")).toBe(true);
  const session = await fetch(`${url}/api/auth/session`, { headers: { cookie: cookie() } });
  return {
    ...((await session.json()) as { tenantId: string; role: string; user: { email: string } }),
    cookie: cookie(),
  };
}
