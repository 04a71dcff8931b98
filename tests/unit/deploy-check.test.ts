import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { kvStore } from "@/lib/config";
import {
  checkDeployment,
  LOCAL_SERVER_EXPOSED_WARNING,
  listenAddress,
  MEMORY_KV_WARNING,
} from "@/lib/deploy-check";

const dataDir = mkdtempSync(path.join(tmpdir(), "smx-deploy-check-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const SHARED = { DATABASE_URL: "postgres://app:pw@db.internal:5432/searchmux", SEARCHMUX_DATA_DIR: dataDir };
const KEY = `1:${randomBytes(32).toString("base64")}`;
const SECRETS = { SEARCHMUX_SECRET_KEY: KEY, AUTH_SECRET: "s3cret" };

describe("checkDeployment", () => {
  it("warns when a server for this machine alone (loopback names, no trusted proxy) listens beyond it", () => {
    const local = { SEARCHMUX_DATA_DIR: dataDir };
    const warned = (env: Record<string, string>, listening: string) =>
      checkDeployment(env, "server", process.cwd(), [], listening).warnings.includes(
        LOCAL_SERVER_EXPOSED_WARNING,
      );
    expect(warned(local, "0.0.0.0")).toBe(true);
    expect(warned({ ...local, AUTH_URL: "http://localhost:3000" }, "::")).toBe(true);
    expect(warned(local, "127.0.0.1")).toBe(false);
    expect(warned(local, "::1")).toBe(false);
    expect(warned({ ...local, SEARCHMUX_TRUSTED_PROXIES: "1" }, "0.0.0.0")).toBe(false);
    expect(warned({ ...local, AUTH_URL: "https://search.example.com" }, "0.0.0.0")).toBe(false);
  });

  it("reads the listen address from next start's -H, else the standalone server's HOSTNAME, else every interface", () => {
    expect(listenAddress(["node", "next", "start", "-H", "127.0.0.1"], {})).toBe("127.0.0.1");
    expect(listenAddress(["node", "next", "start", "--hostname=::1"], {})).toBe("::1");
    expect(listenAddress(["node", "server.js"], { HOSTNAME: "127.0.0.1" })).toBe("127.0.0.1");
    expect(listenAddress(["node", "next", "start"], {})).toBe("0.0.0.0");
  });

  it("accepts zero configuration: the embedded database generates its own secrets", () => {
    expect(checkDeployment({ SEARCHMUX_DATA_DIR: dataDir }, "server")).toEqual({ errors: [], warnings: [] });
  });

  it("refuses a shared database without the shared secrets, one line each: what, why, how", () => {
    const { errors } = checkDeployment(SHARED, "server");
    expect(errors).toHaveLength(2);
    const [key, auth] = errors;
    expect(key).toMatch(/^SEARCHMUX_SECRET_KEY is required when DATABASE_URL is set: provider keys stored/);
    expect(auth).toMatch(/^AUTH_SECRET is required when DATABASE_URL is set: a session signed/);
    for (const error of errors) {
      expect(error).toContain("`openssl rand -base64 32`");
      expect(error).not.toContain("\n");
      expect(error).not.toContain("pw");
    }
  });

  it("asks the CLI only for the key-encryption key (it signs no sessions)", () => {
    const { errors } = checkDeployment(SHARED, "cli");
    expect(errors).toEqual([expect.stringMatching(/^SEARCHMUX_SECRET_KEY is required/)]);
    expect(checkDeployment({ ...SHARED, SEARCHMUX_SECRET_KEY: KEY }, "cli").errors).toEqual([]);
  });

  it("counts a blank secret as missing", () => {
    const { errors } = checkDeployment({ ...SHARED, ...SECRETS, AUTH_SECRET: "  " }, "server");
    expect(errors).toEqual([expect.stringMatching(/^AUTH_SECRET is required/)]);
  });

  it("points at the key this machine generated before, so what it stored stays readable", () => {
    const generated = path.join(dataDir, "secret-key");
    writeFileSync(generated, KEY);
    try {
      const [key] = checkDeployment(SHARED, "cli").errors;
      expect(key).toContain(`use the value generated in ${generated}`);
    } finally {
      rmSync(generated);
    }
  });

  it("warns (the server only) when the KV store stays in memory next to a shared database", () => {
    expect(checkDeployment({ ...SHARED, ...SECRETS }, "server")).toEqual({
      errors: [],
      warnings: [MEMORY_KV_WARNING],
    });
    expect(checkDeployment({ ...SHARED, ...SECRETS }, "cli").warnings).toEqual([]);
    expect(checkDeployment({ ...SHARED, ...SECRETS, REDIS_URL: "redis://kv:6379" }, "server")).toEqual({
      errors: [],
      warnings: [],
    });
    expect(
      checkDeployment(
        {
          ...SHARED,
          ...SECRETS,
          UPSTASH_REDIS_REST_URL: "https://x.upstash.io",
          UPSTASH_REDIS_REST_TOKEN: "t",
        },
        "server",
      ).warnings,
    ).toEqual([]);
  });

  it("refuses half of an Upstash pair, naming the missing variable, with or without a database", () => {
    expect(checkDeployment({ UPSTASH_REDIS_REST_URL: "https://x.upstash.io" }, "server").errors).toEqual([
      "UPSTASH_REDIS_REST_TOKEN is missing: UPSTASH_REDIS_REST_URL is set, and the Upstash store needs both (or neither)",
    ]);
    expect(checkDeployment({ KV_REST_API_TOKEN: "t", REDIS_URL: "redis://kv:6379" }, "cli").errors).toEqual([
      "KV_REST_API_URL is missing: KV_REST_API_TOKEN is set, and the Upstash store needs both (or neither)",
    ]);
  });

  it("refuses half of a sign-in pair, which would otherwise be ignored without a word", () => {
    expect(checkDeployment({ GITHUB_ID: "id" }, "server").errors).toEqual([
      "GITHUB_SECRET is missing: GITHUB_ID is set, and GitHub sign-in needs both (or neither)",
    ]);
    expect(
      checkDeployment({ GOOGLE_SECRET: "s", GITHUB_ID: "id", GITHUB_SECRET: "s" }, "server").errors,
    ).toEqual(["GOOGLE_ID is missing: GOOGLE_SECRET is set, and Google sign-in needs both (or neither)"]);
  });

  it("reports other invalid settings as one line naming the variable", () => {
    const { errors } = checkDeployment(
      { AUTH_URL: "searchmux.example", SEARCHMUX_TRUSTED_PROXIES: "x" },
      "server",
    );
    expect(errors).toEqual([expect.stringMatching(/^AUTH_URL must be an absolute URL/)]);
    expect(checkDeployment({ SEARCHMUX_DB_DRIVER: "mysql" }, "cli").errors).toEqual([
      expect.stringMatching(/^SEARCHMUX_DB_DRIVER: /),
    ]);
  });
});

describe("checkDeployment: the key-encryption key", () => {
  const key = (bytes: number) => randomBytes(bytes).toString("base64");
  const refusal = (value: string, runner: "server" | "cli" = "server") =>
    checkDeployment({ SEARCHMUX_DATA_DIR: dataDir, SEARCHMUX_SECRET_KEY: value }, runner).errors;

  it("accepts one key, a bare one as version 1, and several versions newest first", () => {
    expect(refusal(key(32))).toEqual([]);
    expect(refusal(`3:${key(32)}, 2:${key(32)},1:${key(32)}`)).toEqual([]);
  });

  // The case: SEARCHMUX_SECRET_KEY=short started healthy and every key use answered 500.
  it.each([
    ["short", /^SEARCHMUX_SECRET_KEY: the key of version 1 must be 32 bytes of base64 .*not 3 bytes$/],
    ["not-a-key!", /^SEARCHMUX_SECRET_KEY: the key of version 1 must be 32 bytes .*not something else$/],
    [key(16), /^SEARCHMUX_SECRET_KEY: the key of version 1 must be 32 bytes of base64 .*not 16 bytes$/],
    [`2:${key(32)},1:${key(31)}`, /^SEARCHMUX_SECRET_KEY: the key of version 1 must be 32 bytes/],
    [`v2:${key(32)}`, /^entry 1 of SEARCHMUX_SECRET_KEY must be <version>:<base64 key> with a version/],
    [`0:${key(32)}`, /^entry 1 of SEARCHMUX_SECRET_KEY must be <version>:<base64 key>/],
    [`1:${key(32)},1:${key(32)}`, /^SEARCHMUX_SECRET_KEY names a version twice$/],
    [" , ", /^SEARCHMUX_SECRET_KEY holds no key$/],
    [randomBytes(32).toString("hex"), /^SEARCHMUX_SECRET_KEY: the key of version 1 must be 32 bytes/],
  ])("refuses %j with one line naming the variable, never its value", (value, message) => {
    for (const runner of ["server", "cli"] as const) {
      const errors = refusal(value, runner);
      expect(errors).toEqual([expect.stringMatching(message)]);
      expect(errors[0]).not.toContain("\n");
      for (const part of value.split(/[,:]/).filter((p) => p.trim().length > 3)) {
        expect(errors[0]).not.toContain(part.trim());
      }
    }
  });
});

describe("checkDeployment: where the embedded database cannot run", () => {
  it("refuses it on Vercel (or Lambda) without DATABASE_URL, naming the variable that says so", () => {
    expect(checkDeployment({ SEARCHMUX_DATA_DIR: dataDir, VERCEL: "1" }, "server").errors).toEqual([
      expect.stringMatching(/^DATABASE_URL is required on a serverless platform \(VERCEL is set\): /),
    ]);
    expect(
      checkDeployment({ SEARCHMUX_DATA_DIR: dataDir, AWS_LAMBDA_FUNCTION_NAME: "f" }, "server").errors,
    ).toEqual([expect.stringMatching(/\(AWS_LAMBDA_FUNCTION_NAME is set\)/)]);
    expect(checkDeployment({ ...SHARED, ...SECRETS, VERCEL: "1" }, "server").errors).toEqual([]);
    // A CLI on a workstation with Vercel's pulled variables still runs the embedded database.
    expect(checkDeployment({ SEARCHMUX_DATA_DIR: dataDir, VERCEL: "1" }, "cli").errors).toEqual([]);
  });

  it("refuses it in a server build that leaves it out, and serves PostgreSQL there", () => {
    const without = mkdtempSync(path.join(tmpdir(), "smx-no-embedded-"));
    const withIt = mkdtempSync(path.join(tmpdir(), "smx-embedded-"));
    try {
      mkdirSync(path.join(withIt, "lib/db"), { recursive: true });
      writeFileSync(path.join(withIt, "lib/db/embedded-server.mjs"), "");
      expect(checkDeployment({ SEARCHMUX_DATA_DIR: dataDir }, "server", without).errors).toEqual([
        expect.stringMatching(
          /^DATABASE_URL is required: this build leaves the embedded database out \(built with SEARCHMUX_EMBEDDED_DATABASE=0\)/,
        ),
      ]);
      expect(checkDeployment({ SEARCHMUX_DATA_DIR: dataDir }, "server", withIt).errors).toEqual([]);
      expect(checkDeployment({ ...SHARED, ...SECRETS }, "server", without).errors).toEqual([]);
      // The CLI's operator commands need no database: it runs anywhere, with the embedded one or not.
      expect(checkDeployment({ SEARCHMUX_DATA_DIR: dataDir }, "cli", without).errors).toEqual([]);
    } finally {
      rmSync(without, { recursive: true, force: true });
      rmSync(withIt, { recursive: true, force: true });
    }
  });

  it("names an invalid pool size", () => {
    expect(checkDeployment({ ...SHARED, ...SECRETS, DATABASE_POOL_MAX: "0" }, "server").errors).toEqual([
      'DATABASE_POOL_MAX must be a whole number of at least 1, not "0"',
    ]);
  });
});

describe("kvStore", () => {
  const vercel = { KV_REST_API_URL: "https://vercel.upstash.io", KV_REST_API_TOKEN: "v" };
  const upstash = { UPSTASH_REDIS_REST_URL: "https://own.upstash.io", UPSTASH_REDIS_REST_TOKEN: "u" };

  it("reads Upstash's own variable names as well as Vercel's", () => {
    expect(kvStore(upstash)).toEqual({
      kind: "upstash",
      url: "https://own.upstash.io",
      token: "u",
    });
  });

  it("prefers KV_REST_API_* over UPSTASH_REDIS_REST_*, and either over REDIS_URL", () => {
    expect(kvStore({ ...upstash, ...vercel, REDIS_URL: "redis://kv:6379" })).toMatchObject({
      kind: "upstash",
      url: "https://vercel.upstash.io",
    });
    expect(kvStore({ ...upstash, REDIS_URL: "redis://kv:6379" })).toMatchObject({
      url: "https://own.upstash.io",
    });
    expect(kvStore({ REDIS_URL: " redis://kv:6379 " })).toEqual({ kind: "redis", url: "redis://kv:6379" });
    expect(kvStore({ KV_REST_API_URL: " ", UPSTASH_REDIS_REST_TOKEN: "" })).toEqual({
      kind: "memory",
      maxBytes: 32 * 1024 * 1024,
    });
  });

  it("refuses half a pair even when the other pair is complete", () => {
    expect(() => kvStore({ ...vercel, UPSTASH_REDIS_REST_URL: "https://own.upstash.io" })).toThrow(
      /^UPSTASH_REDIS_REST_TOKEN is missing/,
    );
  });
});
