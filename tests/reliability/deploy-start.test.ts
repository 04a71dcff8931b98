/**
 * Deploying #16 against `next start`: with zero configuration the sign-in page says exactly what to set
 * for each way in, and following it for the development sign-in signs in; a shared database without its
 * shared secrets refuses to start with one line per variable; an in-memory KV store beside a shared
 * database starts, warns once and reports `degraded` in /api/health. And #29: a malformed
 * SEARCHMUX_SECRET_KEY and the embedded database under VERCEL refuse to start with one line naming the
 * variable; a key that cannot read what another key stored starts live but not ready, saying why once.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MEMORY_KV_WARNING } from "@/lib/deploy-check";
import { databaseTargets, newDataDir } from "@/tests/support/database";
import { fakeProviderEnv } from "@/tests/support/provider-env";
import { freePort, type NextServer, startNextServer } from "./support/next-server";
import { type EnvVars, ensureProductionBuild } from "./support/production-build";

const SETUP_MS = 10 * 60_000;
const postgres = databaseTargets().find((target) => target.name === "postgres");
const dataDirs: string[] = [];

/** The OAuth and OpenID Connect variables, which the zero-configuration sign-in page names. */
const SIGN_IN_VARIABLES = [
  "GITHUB_ID",
  "GITHUB_SECRET",
  "GOOGLE_ID",
  "GOOGLE_SECRET",
  "AUTH_OIDC_ISSUER",
  "AUTH_OIDC_ID",
  "AUTH_OIDC_SECRET",
  "AUTH_OIDC_NAME",
];

/**
 * Zero configuration, whatever the test's own environment or a developer's .env.local holds. The data
 * directory holds a migrated embedded database (tests/support/database.ts), or with `empty` nothing, as on
 * a first start.
 */
function zeroConfig(extra: EnvVars = {}, { empty = false } = {}): EnvVars {
  const dataDir = empty
    ? mkdtempSync(path.join(tmpdir(), "smx-deploy-start-"))
    : newDataDir("smx-deploy-start-");
  dataDirs.push(dataDir);
  const blank = [
    "DATABASE_URL",
    "REDIS_URL",
    "KV_REST_API_URL",
    "KV_REST_API_TOKEN",
    "UPSTASH_REDIS_REST_URL",
    "UPSTASH_REDIS_REST_TOKEN",
    "AUTH_SECRET",
    "AUTH_URL",
    "AUTH_DEV_LOGIN",
    "AUTH_DEV_LOGIN_ALLOW_PRODUCTION",
    "SEARCHMUX_ALLOWED_HOSTS",
    "SEARCHMUX_SECRET_KEY",
    ...SIGN_IN_VARIABLES,
    "SMTP_URL",
    "EMAIL_FROM",
  ];
  return {
    // Nothing here calls a provider; should anything try, it lands on a closed loopback port.
    ...fakeProviderEnv("http://127.0.0.1:9"),
    ...Object.fromEntries(blank.map((name) => [name, ""])),
    SEARCHMUX_DATA_DIR: dataDir,
    LOG_LEVEL: "info",
    ...extra,
  };
}

/** The text of the sign-in page, as a browser on this machine gets it. */
async function signInPage(server: NextServer): Promise<string> {
  const response = await fetch(`${server.url}/signin`);
  expect(response.status).toBe(200);
  return (await response.text()).replace(/<!-- -->/g, "");
}

/** The development sign-in as the button does it (next-auth's CSRF token, then its callback): the session cookie. */
async function devSignIn(server: NextServer): Promise<string | undefined> {
  const csrf = await fetch(`${server.url}/api/auth/csrf`);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const cookie = csrf.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .join("; ");
  const callback = await fetch(`${server.url}/api/auth/callback/dev`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie },
    body: new URLSearchParams({ csrfToken, callbackUrl: `${server.url}/dashboard`, json: "true" }),
  });
  return callback.headers
    .getSetCookie()
    .map((line) => line.split(";")[0])
    .find((pair) => pair?.startsWith("next-auth.session-token="));
}

describe("starting a deployment with next start", () => {
  beforeAll(async () => {
    await ensureProductionBuild((line) => console.log(line));
  }, SETUP_MS);
  afterAll(() => {
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  });

  it("with zero configuration, the sign-in page says what to set for each way in", async () => {
    const port = await freePort();
    const server = await startNextServer({ port, env: zeroConfig({}, { empty: true }) });
    try {
      const page = await signInPage(server);
      expect(page).toContain("No way to sign in is configured yet");
      // Under npm start the development sign-in needs both variables, which the page gives together.
      expect(page).toContain("AUTH_DEV_LOGIN=1\nAUTH_DEV_LOGIN_ALLOW_PRODUCTION=1");
      expect(page).toContain(`http://localhost:${port}/signin`);
      expect(page).toContain(`http://localhost:${port}/api/auth/callback/github`);
      expect(page).toContain(`http://localhost:${port}/api/auth/callback/google`);
      expect(page).toContain(`http://localhost:${port}/api/auth/callback/oidc`);
      for (const name of [...SIGN_IN_VARIABLES, "AUTH_URL"]) {
        expect(page).toContain(`<code>${name}</code>`);
      }
      expect(page).not.toContain("Development sign-in</button>");
    } finally {
      await server.stop();
    }
  });

  it("with AUTH_DEV_LOGIN=1 alone, the page names the override npm start still needs", async () => {
    const server = await startNextServer({ env: zeroConfig({ AUTH_DEV_LOGIN: "1" }) });
    try {
      const page = await signInPage(server);
      expect(page).toContain(
        "<code>AUTH_DEV_LOGIN=1</code> is set, but this server runs in production mode (<code>npm start</code>), where the development sign-in also needs <code>AUTH_DEV_LOGIN_ALLOW_PRODUCTION=1</code>.",
      );
    } finally {
      await server.stop();
    }
  });

  it("with the variables the page gives, the development sign-in signs in", async () => {
    const server = await startNextServer({
      env: zeroConfig({ AUTH_DEV_LOGIN: "1", AUTH_DEV_LOGIN_ALLOW_PRODUCTION: "1" }),
    });
    try {
      const page = await signInPage(server);
      expect(page).toContain("Development sign-in</button>");
      expect(page).not.toContain("No way to sign in is configured yet");
      const session = await devSignIn(server);
      expect(session).toBeDefined();
      const dashboard = await fetch(`${server.url}/dashboard`, {
        redirect: "manual",
        headers: { cookie: session ?? "" },
      });
      expect(dashboard.status).toBe(200);
    } finally {
      await server.stop();
    }
  });

  /** What a start that must fail printed (all of it, and its `searchmux: …` lines); it fails the test if it started. */
  async function refusal(env: EnvVars): Promise<{ output: string; lines: string[] }> {
    const output = await startNextServer({ env }).then(
      async (server) => {
        await server.stop();
        return "started";
      },
      (error: Error) => error.message,
    );
    expect(output).toContain("next start exited before it was ready");
    return { output, lines: output.split("\n").filter((line) => line.startsWith("searchmux: ")) };
  }

  it("refuses to start with a shared database but no shared secrets, one line per variable", async () => {
    const { output, lines } = await refusal(
      zeroConfig({ DATABASE_URL: "postgres://searchmux:hunter2@127.0.0.1:1/searchmux" }),
    );
    expect(lines).toEqual([
      expect.stringMatching(
        /^searchmux: SEARCHMUX_SECRET_KEY is required when DATABASE_URL is set: .*openssl rand -base64 32/,
      ),
      expect.stringMatching(
        /^searchmux: AUTH_SECRET is required when DATABASE_URL is set: .*openssl rand -base64 32/,
      ),
    ]);
    expect(output).not.toContain("hunter2");
  });

  it("refuses to start with a malformed SEARCHMUX_SECRET_KEY, in one line naming it and not its value", async () => {
    const { lines } = await refusal(zeroConfig({ SEARCHMUX_SECRET_KEY: "short" }));
    expect(lines).toEqual([
      "searchmux: SEARCHMUX_SECRET_KEY: the key of version 1 must be 32 bytes of base64 (`openssl rand -base64 32`), not 3 bytes",
    ]);
  });

  it("refuses to start with an http:// company sign-in issuer or a bad SMTP_URL, never printing a secret", async () => {
    const { output, lines } = await refusal(
      zeroConfig({
        AUTH_OIDC_ISSUER: "http://login.corp.test",
        AUTH_OIDC_ID: "searchmux",
        AUTH_OIDC_SECRET: "oidc-hunter2",
        SMTP_URL: "http://mailer:smtp-hunter2@mail.corp.test",
        EMAIL_FROM: "invites@corp.test",
      }),
    );
    expect(lines).toEqual([
      "searchmux: AUTH_OIDC_ISSUER must be an https:// URL in production (npm start)",
      expect.stringMatching(/^searchmux: SMTP_URL must be smtp:\/\/user:password@host:587/),
    ]);
    expect(output).not.toMatch(/hunter2/);
  });

  it("refuses the embedded database under VERCEL, in one line saying DATABASE_URL is needed", async () => {
    expect((await refusal(zeroConfig({ VERCEL: "1" }))).lines).toEqual([
      expect.stringMatching(
        /^searchmux: DATABASE_URL is required on a serverless platform \(VERCEL is set\): /,
      ),
    ]);
  });

  it("starts live but not ready with a key that cannot read what another key stored, saying why once", async () => {
    const first = zeroConfig({ SEARCHMUX_SECRET_KEY: `1:${randomBytes(32).toString("base64")}` });
    const original = await startNextServer({ env: first });
    try {
      expect((await fetch(`${original.url}/api/ready`)).status).toBe(200);
    } finally {
      await original.stop();
    }
    // The same data, another key of the same version: what an instance with a copy-paste slip runs.
    const other = await startNextServer({
      env: { ...first, SEARCHMUX_SECRET_KEY: `1:${randomBytes(32).toString("base64")}` },
    });
    try {
      expect((await fetch(`${other.url}/api/health`)).status).toBe(200);
      for (let asked = 0; asked < 2; asked++) {
        const ready = await fetch(`${other.url}/api/ready`);
        expect(ready.status).toBe(503);
        expect(await ready.json()).toMatchObject({
          status: "error",
          db: "ok",
          secret_key: "error",
          reason: expect.stringMatching(/^SEARCHMUX_SECRET_KEY's key of version 1 is not the key that data/),
        });
      }
    } finally {
      await other.stop();
    }
    const problems = other
      .output()
      .split("\n")
      .filter((line) => line.includes("is not the key that data stored under version 1"));
    expect(problems).toHaveLength(1);
    expect(JSON.parse(problems[0] ?? "{}")).toMatchObject({ level: 50 });
  });

  // Beside a shared database: PostgreSQL, where the test has one (DATABASE_URL).
  it.runIf(postgres)(
    "an in-memory KV store starts, warns once and reports degraded (200) with the reason",
    async () => {
      const t = await (postgres as NonNullable<typeof postgres>).create();
      const server = await startNextServer({
        env: zeroConfig({
          DATABASE_URL: t.url,
          SEARCHMUX_SECRET_KEY: `1:${randomBytes(32).toString("base64")}`,
          AUTH_SECRET: randomBytes(32).toString("base64"),
        }),
      }).catch(async (error: unknown) => {
        await t.cleanup();
        throw error;
      });
      try {
        const health = await fetch(`${server.url}/api/health`);
        expect(health.status).toBe(200);
        expect(await health.json()).toMatchObject({
          status: "degraded",
          db: "ok",
          kv: "ok",
          reason:
            "the KV store is in memory next to a shared database: each instance caches and rate-limits on its own",
        });
      } finally {
        await server.stop();
        await t.cleanup();
      }
      expect(server.output().split(MEMORY_KV_WARNING)).toHaveLength(2);
    },
  );
});
