/**
 * Platform: whether this environment can run as configured, checked once as a server or the CLI starts
 * (lib/server-start.ts, scripts/preflight.ts). A deployment missing a shared secret or holding half a
 * credential pair refuses to start with one line naming the variable, instead of failing later one request
 * or one instance at a time. Imports only node built-ins and lib/config.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { ZodError } from "zod";
import {
  allowedHosts,
  type Config,
  incompleteSet,
  kvStore,
  LOOPBACK_HOSTS,
  loadConfig,
  mailSettings,
  secretKeyVersions,
  serverlessPlatform,
  trustedProxies,
} from "@/lib/config";
import { embeddedServerScript } from "@/lib/db/embedded";

export type Runner = "server" | "cli";

/**
 * Secrets the embedded setup generates per data directory. With a shared database each process would
 * otherwise make its own, and what one writes another cannot read.
 */
const SHARED_SECRETS = {
  SEARCHMUX_SECRET_KEY: {
    file: "secret-key",
    why: "provider keys stored through one instance or the CLI must be readable by every other",
  },
  AUTH_SECRET: {
    file: "auth-secret",
    why: "a session signed by one instance must be accepted by every other",
  },
} as const;
export type SharedSecret = keyof typeof SHARED_SECRETS;

/** The CLI stores and reads provider keys but signs no sessions. */
const NEEDED: Readonly<Record<Runner, readonly SharedSecret[]>> = {
  server: ["SEARCHMUX_SECRET_KEY", "AUTH_SECRET"],
  cli: ["SEARCHMUX_SECRET_KEY"],
};

/** What is missing, why, and how to make one; points at the value this machine generated, if any. */
export function missingSecretMessage(name: SharedSecret, dataDir: string): string {
  const { file, why } = SHARED_SECRETS[name];
  // Read at run time from wherever the data directory is: nothing for the build to trace.
  const generated = path.join(/*turbopackIgnore: true*/ dataDir, file);
  const keep = existsSync(/*turbopackIgnore: true*/ generated)
    ? ` (to keep reading what was stored before, use the value generated in ${generated})`
    : "";
  return (
    `${name} is required when DATABASE_URL is set: ${why}. Generate one with ` +
    `\`openssl rand -base64 32\` and give every instance and the CLI the same value${keep}.`
  );
}

export const MEMORY_KV_WARNING =
  "The KV store is in memory next to a shared database (DATABASE_URL): each instance caches and rate-limits " +
  "on its own, so limits multiply with the instances. Set REDIS_URL, or KV_REST_API_URL and " +
  "KV_REST_API_TOKEN (or UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN) for Upstash.";

export const MAIL_WITHOUT_AUTH_URL_WARNING =
  "Invitation emails are on (SMTP_URL) but AUTH_URL is not set: no invitation link is emailed (the inviting " +
  "admin passes it on), since a link must not name whatever host a request came in on. Set AUTH_URL to the " +
  "address people use.";

export const LOCAL_SERVER_EXPOSED_WARNING =
  "This server answers only for loopback names (AUTH_URL and SEARCHMUX_ALLOWED_HOSTS are unset or loopback) " +
  "and trusts no proxy (SEARCHMUX_TRUSTED_PROXIES), so it tells no two callers apart: open client " +
  "registration then shares one bucket, which any caller can empty. That is meant for one machine, but it " +
  "listens on every interface. Start it on loopback alone (`npm start -- -H 127.0.0.1`; HOSTNAME=127.0.0.1 " +
  "for the standalone server), or set AUTH_URL and SEARCHMUX_TRUSTED_PROXIES for a server others reach.";

/**
 * The address this server listens on: `next start`'s -H/--hostname (default 0.0.0.0), or the standalone
 * server's HOSTNAME (default 0.0.0.0). A container's HOSTNAME is its own name: not loopback, which it is not.
 */
export function listenAddress(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): string {
  const flag = argv.findIndex((arg) => arg === "-H" || arg === "--hostname");
  const given = flag >= 0 ? argv[flag + 1] : argv.find((arg) => arg.startsWith("--hostname="))?.slice(11);
  return given?.trim() || env.HOSTNAME?.trim() || "0.0.0.0";
}

const isLoopbackAddress = (address: string) => /^(localhost|127(\.\d{1,3}){3}|::1|\[::1\])$/i.test(address);

/** Whether the server answers only for loopback names (no public name configured). */
const isLocalOnly = (env: Readonly<Record<string, string | undefined>>) =>
  allowedHosts(env).every((host) => LOOPBACK_HOSTS.some((loopback) => loopback.name === host.name));

export interface DeployCheck {
  /** Each one stops the start. */
  errors: string[];
  /** Logged once at start; the service runs degraded. */
  warnings: string[];
}

/** One line per configuration error, naming the variable (zod reports every invalid field). */
function oneLine(error: unknown): string {
  if (error instanceof ZodError) {
    return error.issues
      .map(({ path: at, message }) => {
        const name = at.join(".");
        return message.startsWith(name) ? message : `${name}: ${message}`;
      })
      .join("; ");
  }
  return error instanceof Error ? error.message : String(error);
}

function attempt<T>(read: () => T, errors: string[]): T | undefined {
  try {
    return read();
  } catch (error) {
    errors.push(oneLine(error));
    return undefined;
  }
}

/** Sign-in pairs that are ignored unless both are set: half of one is a mistake to name at start. */
const SIGN_IN_PAIRS = [
  { names: ["GITHUB_ID", "GITHUB_SECRET"], what: "GitHub sign-in" },
  { names: ["GOOGLE_ID", "GOOGLE_SECRET"], what: "Google sign-in" },
] as const;

/**
 * Why a server cannot run the embedded database here, if it cannot: a serverless platform keeps no disk
 * between invocations, and a build made without it (next.config.ts) lacks its server. `root` is the app's
 * directory, where the embedded server script is looked for. (The CLI is left alone: its operator commands
 * need no database, wherever it runs.)
 */
function embeddedDatabaseProblem(
  env: Readonly<Record<string, string | undefined>>,
  root: string,
): string | undefined {
  const platform = serverlessPlatform(env);
  if (platform)
    return (
      `DATABASE_URL is required on a serverless platform (${platform} is set): the embedded database would ` +
      "keep its data on a disk the platform throws away. Set DATABASE_URL to a PostgreSQL database (Neon on Vercel)."
    );
  if (!existsSync(embeddedServerScript(root)))
    return (
      "DATABASE_URL is required: this build leaves the embedded database out (built with " +
      "SEARCHMUX_EMBEDDED_DATABASE=0). Set DATABASE_URL to a PostgreSQL database, or build without that variable."
    );
  return undefined;
}

/**
 * A check of a layer above the platform (the price overrides, lib/pipeline/providers/prices.ts), handed in by
 * the entry point that starts (instrumentation.ts, scripts/preflight.ts): why the start is refused, if it is.
 */
export type StartCheck = (env: Readonly<Record<string, string | undefined>>) => string | undefined;

/**
 * `checks` are the layers above's own (StartCheck); `listening` is the server's listen address when known
 * (listenAddress): a server for this machine alone that listens beyond it is warned about.
 */
export function checkDeployment(
  env: Readonly<Record<string, string | undefined>>,
  runner: Runner,
  root: string = process.cwd(),
  checks: readonly StartCheck[] = [],
  listening?: string,
): DeployCheck {
  const errors: string[] = [];
  for (const check of checks) {
    const problem = check(env);
    if (problem) errors.push(problem);
  }
  const warnings: string[] = [];
  const config: Config | undefined = attempt(() => loadConfig(env), errors);
  const kv = attempt(() => kvStore(env), errors);
  const secretKey = env.SEARCHMUX_SECRET_KEY?.trim();
  if (secretKey) attempt(() => secretKeyVersions(secretKey), errors);
  for (const { names, what } of SIGN_IN_PAIRS) {
    const half = incompleteSet(env, names, what);
    if (half) errors.push(half);
  }
  const mail = attempt(() => mailSettings(env), errors);
  if (runner === "server" && mail && config?.production && !config.auth.url)
    warnings.push(MAIL_WITHOUT_AUTH_URL_WARNING);
  if (runner === "server" && listening !== undefined && !isLoopbackAddress(listening)) {
    const local = attempt(() => isLocalOnly(env), errors);
    if (local && attempt(() => trustedProxies(env), errors)?.kind === "none")
      warnings.push(LOCAL_SERVER_EXPOSED_WARNING);
  }
  if (runner === "server" && config && !config.database.shared) {
    const problem = embeddedDatabaseProblem(env, root);
    if (problem) errors.push(problem);
  }
  if (config?.database.shared) {
    for (const name of NEEDED[runner]) {
      if (!env[name]?.trim()) errors.push(missingSecretMessage(name, config.dataDir));
    }
    if (runner === "server" && kv?.kind === "memory") warnings.push(MEMORY_KV_WARNING);
  }
  return { errors, warnings };
}

/** Checks this process's environment: prints each error on stderr and exits 1, else returns the warnings. */
export function enforceDeployment(runner: Runner, checks: readonly StartCheck[] = []): string[] {
  const listening = runner === "server" ? listenAddress(process.argv, process.env) : undefined;
  const { errors, warnings } = checkDeployment(process.env, runner, process.cwd(), checks, listening);
  if (errors.length === 0) return warnings;
  for (const error of errors) process.stderr.write(`searchmux: ${error}\n`);
  process.exit(1);
}
