/**
 * Platform: configuration read from the environment in one place, validated once.
 * May import only node built-ins and zod; never services, engine or Next.js.
 */
import path from "node:path";
import { z } from "zod";

const optional = z
  .string()
  .optional()
  .transform((value) => (value?.trim() ? value.trim() : undefined));
const flag = optional.transform((value) => value === "1" || value === "true");

const envSchema = z.object({
  NODE_ENV: optional,
  PORT: optional,
  DATABASE_URL: optional,
  SEARCHMUX_DB_DRIVER: z.enum(["embedded", "pg", "neon"]).optional(),
  SEARCHMUX_NEON_WS_PROXY: optional,
  SEARCHMUX_DATA_DIR: optional,
  AUTH_SECRET: optional,
  AUTH_URL: optional,
  AUTH_DEV_LOGIN: flag,
  AUTH_DEV_LOGIN_ALLOW_PRODUCTION: flag,
  GITHUB_ID: optional,
  GITHUB_SECRET: optional,
  GOOGLE_ID: optional,
  GOOGLE_SECRET: optional,
  SEARCHMUX_OPERATOR_EMAILS: optional,
  SEARCHMUX_OPERATOR_TOKEN: optional,
  LOG_LEVEL: optional,
});

export type DatabaseDriver = "embedded" | "pg" | "neon";

export interface Config {
  production: boolean;
  database: { driver: DatabaseDriver; url?: string; neonWsProxy?: string };
  dataDir: string;
  auth: {
    secret?: string;
    url?: string;
    devLogin: boolean;
    github?: { clientId: string; clientSecret: string };
    google?: { clientId: string; clientSecret: string };
  };
  operator: {
    /** Signed-in users with these emails see the cross-tenant admin pages. */
    emails: readonly string[];
    /** Bearer token for /api/metrics; without one the endpoint is closed. */
    token?: string;
  };
  logLevel: string;
}

/** Neon hosts are recognised by name; SEARCHMUX_DB_DRIVER=neon forces the driver for proxies and tests. */
function pickDriver(url: string | undefined, explicit: DatabaseDriver | undefined): DatabaseDriver {
  if (!url) return "embedded";
  if (explicit) return explicit;
  const host = URL.canParse(url) ? new URL(url).hostname : "";
  return host.endsWith(".neon.tech") || host.endsWith(".neon.build") ? "neon" : "pg";
}

function pair(id: string | undefined, secret: string | undefined) {
  return id && secret ? { clientId: id, clientSecret: secret } : undefined;
}

export function loadConfig(env: Readonly<Record<string, string | undefined>> = process.env): Config {
  const e = envSchema.parse(env);
  const production = e.NODE_ENV === "production";
  return {
    production,
    database: {
      driver: pickDriver(e.DATABASE_URL, e.SEARCHMUX_DB_DRIVER),
      url: e.DATABASE_URL,
      neonWsProxy: e.SEARCHMUX_NEON_WS_PROXY,
    },
    dataDir: path.resolve(/*turbopackIgnore: true*/ e.SEARCHMUX_DATA_DIR ?? ".data"),
    auth: {
      secret: e.AUTH_SECRET,
      url: e.AUTH_URL,
      // The development sign-in never runs in production unless explicitly allowed.
      devLogin: e.AUTH_DEV_LOGIN && (!production || e.AUTH_DEV_LOGIN_ALLOW_PRODUCTION),
      github: pair(e.GITHUB_ID, e.GITHUB_SECRET),
      google: pair(e.GOOGLE_ID, e.GOOGLE_SECRET),
    },
    operator: {
      emails: (e.SEARCHMUX_OPERATOR_EMAILS ?? "")
        .split(",")
        .map((email) => email.trim().toLowerCase())
        .filter(Boolean),
      token: e.SEARCHMUX_OPERATOR_TOKEN,
    },
    logLevel: e.LOG_LEVEL ?? (e.NODE_ENV === "test" ? "silent" : "info"),
  };
}

let cached: Config | undefined;
export function config(): Config {
  cached ??= loadConfig();
  return cached;
}
