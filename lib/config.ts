/**
 * Platform: configuration read from the environment in one place, validated once.
 * May import only node built-ins and zod; never services, engine or Next.js.
 */
import { BlockList, isIP } from "node:net";
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
  AUTH_URL: optional.refine((value) => value === undefined || URL.canParse(value), {
    message: "AUTH_URL must be an absolute URL such as https://searchmux.example",
  }),
  AUTH_DEV_LOGIN: flag,
  AUTH_DEV_LOGIN_ALLOW_PRODUCTION: flag,
  GITHUB_ID: optional,
  GITHUB_SECRET: optional,
  GOOGLE_ID: optional,
  GOOGLE_SECRET: optional,
  AUTH_OIDC_ISSUER: optional,
  AUTH_OIDC_ID: optional,
  AUTH_OIDC_SECRET: optional,
  AUTH_OIDC_NAME: optional,
  SEARCHMUX_OPERATOR_EMAILS: optional,
  SEARCHMUX_OPERATOR_TOKEN: optional,
  LOG_LEVEL: optional,
});

/** node-postgres' and Neon's pool size when DATABASE_POOL_MAX is unset. */
const DEFAULT_DATABASE_POOL_MAX = 10;

export type DatabaseDriver = "embedded" | "pg" | "neon";

export interface Config {
  production: boolean;
  database: {
    driver: DatabaseDriver;
    url?: string;
    neonWsProxy?: string;
    /**
     * A database other processes may reach too (DATABASE_URL): every instance and the CLI must then share
     * the secrets the embedded setup generates per data directory (lib/deploy-check.ts).
     */
    shared: boolean;
    /** Connections this process opens at most (DATABASE_POOL_MAX). */
    poolSize: number;
  };
  dataDir: string;
  auth: {
    secret?: string;
    url?: string;
    devLogin: boolean;
    /** AUTH_DEV_LOGIN is set but refused: production (`npm start`) without AUTH_DEV_LOGIN_ALLOW_PRODUCTION. */
    devLoginNeedsProductionOverride: boolean;
    github?: { clientId: string; clientSecret: string };
    google?: { clientId: string; clientSecret: string };
    /** Company sign-in: any OpenID Connect provider, by discovery from its issuer. */
    oidc?: OidcSignIn;
  };
  operator: {
    /** Signed-in users with these emails see the cross-tenant admin pages. */
    emails: readonly string[];
    /** Bearer token for /api/metrics; without one the endpoint is closed. */
    token?: string;
  };
  logLevel: string;
  /** The Host headers MCP and the development sign-in answer (DNS rebinding); see allowedHosts(env). */
  allowedHosts: readonly AllowedHost[];
  /** Whose X-Forwarded-For entries are believed (SEARCHMUX_TRUSTED_PROXIES); read per request by trustedProxies(env). */
  trustedProxies: TrustedProxies;
  /** Validated here at start; verbs read tenantLimits(ctx.env), so each platform (and test) has its own. */
  limits: TenantLimits;
  /** On Vercel or AWS Lambda: the platform may freeze the process once a response is sent. */
  serverless: boolean;
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

export interface OidcSignIn {
  /** The issuer exactly as the provider names it, its discovery document at `<issuer>/.well-known/openid-configuration`. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** What the sign-in button names (AUTH_OIDC_NAME). */
  name: string;
}

const OIDC_VARIABLES = ["AUTH_OIDC_ISSUER", "AUTH_OIDC_ID", "AUTH_OIDC_SECRET"] as const;
const DEFAULT_OIDC_NAME = "company sign-in";
const MAX_OIDC_NAME_LENGTH = 40;

/**
 * Company sign-in from AUTH_OIDC_ISSUER, AUTH_OIDC_ID and AUTH_OIDC_SECRET (all three or none; blank counts
 * as unset), or undefined. The issuer must be HTTPS in production: its discovery document names the keys
 * that sign the ID tokens, so whoever can change it in transit can sign anyone in. Errors name the
 * variable, never a value.
 */
function oidcSignIn(
  env: Readonly<Record<string, string | undefined>>,
  production: boolean,
): OidcSignIn | undefined {
  const incomplete = incompleteSet(env, OIDC_VARIABLES, "company sign-in (OpenID Connect)");
  if (incomplete) throw new Error(incomplete);
  const [issuer, clientId, clientSecret] = OIDC_VARIABLES.map((name) => env[name]?.trim());
  if (!issuer || !clientId || !clientSecret) return undefined;
  const url = URL.canParse(issuer) ? new URL(issuer) : undefined;
  if (!url || !["https:", "http:"].includes(url.protocol) || url.search || url.hash || url.username)
    throw new Error(
      "AUTH_OIDC_ISSUER must be the provider's issuer URL, such as https://login.example.com/realms/staff " +
        "(no query, fragment or user name)",
    );
  if (production && url.protocol !== "https:")
    throw new Error("AUTH_OIDC_ISSUER must be an https:// URL in production (npm start)");
  const name = env.AUTH_OIDC_NAME?.trim() || DEFAULT_OIDC_NAME;
  if (name.length > MAX_OIDC_NAME_LENGTH || /\p{Cc}/u.test(name))
    throw new Error(`AUTH_OIDC_NAME must be at most ${MAX_OIDC_NAME_LENGTH} characters on one line`);
  return { issuer, clientId, clientSecret, name };
}

/** Where invitation emails go out, and from whom. */
export interface MailSettings {
  /** smtp://user:password@host:port (STARTTLS) or smtps://… (TLS from the start). A secret: never logged or shown. */
  smtpUrl: string;
  /** The From header: `address` or `Name <address>`. */
  from: string;
}

/** `address` or `Name <address>`, on one line. */
const FROM_PATTERN = /^(?:[^<>\r\n]*<[^\s<>@]+@[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+)$/;

/**
 * Invitation emails from SMTP_URL and EMAIL_FROM (both or neither), or undefined. Errors name the variable,
 * never SMTP_URL's value (it carries the password).
 */
export function mailSettings(env: Readonly<Record<string, string | undefined>>): MailSettings | undefined {
  const incomplete = incompleteSet(env, ["SMTP_URL", "EMAIL_FROM"], "sending invitation emails");
  if (incomplete) throw new Error(incomplete);
  const smtpUrl = env.SMTP_URL?.trim();
  const from = env.EMAIL_FROM?.trim();
  if (!smtpUrl || !from) return undefined;
  const url = URL.canParse(smtpUrl) ? new URL(smtpUrl) : undefined;
  if (!url || !["smtp:", "smtps:"].includes(url.protocol) || !url.hostname)
    throw new Error(
      "SMTP_URL must be smtp://user:password@host:587 (STARTTLS) or smtps://user:password@host:465 (TLS)",
    );
  if (!FROM_PATTERN.test(from))
    throw new Error(
      'EMAIL_FROM must be an address such as invites@example.com or "Searchmux <invites@example.com>"',
    );
  return { smtpUrl, from };
}

export interface OperatorQuota {
  metric: "requests" | "usd";
  period: "day" | "month";
  /** Requests, or US dollars. */
  limit: number;
}

/** What the operator allows each workspace (tenant); open sign-up makes these matter. */
export interface TenantLimits {
  /**
   * Quotas per workspace on the calls that draw on the operator: its provider keys and its model. Only
   * the quotas in effect are listed (an unlimited one is absent).
   */
  operatorQuotas: OperatorQuota[];
  /** The highest per-token requests per minute a workspace may set. */
  maxRateLimitRpm: number;
  /** Active (neither revoked nor expired) API tokens a workspace may hold. */
  maxTokensPerTenant: number;
  /** Crawls a workspace may have in flight at once, across instances. */
  maxCrawlsPerTenant: number;
  /** Outbound requests one crawl may make at most, whatever its max_pages (pages, redirects, robots.txt, sitemaps). */
  crawlMaxRequests: number;
  /**
   * The spend cap across all providers (budget `*`, usd, month) a new workspace starts with, in US dollars;
   * null for none. Existing workspaces keep their budgets.
   */
  defaultMonthlyCapUsd: number | null;
}

/**
 * Defaults when sign-up is open (GitHub, Google or company sign-in configured): anyone can create a workspace, so
 * each one's use of the operator's keys is bounded (about $20 a month at most). Without open sign-up the
 * operator creates every workspace and the quotas are unlimited unless set.
 */
const OPEN_SIGN_UP_QUOTAS: readonly OperatorQuota[] = [
  { metric: "requests", period: "day", limit: 1000 },
  { metric: "requests", period: "month", limit: 10_000 },
  { metric: "usd", period: "day", limit: 2 },
  { metric: "usd", period: "month", limit: 20 },
];
const QUOTA_ENV = {
  requests: {
    day: "SEARCHMUX_OPERATOR_QUOTA_REQUESTS_DAY",
    month: "SEARCHMUX_OPERATOR_QUOTA_REQUESTS_MONTH",
  },
  usd: { day: "SEARCHMUX_OPERATOR_QUOTA_USD_DAY", month: "SEARCHMUX_OPERATOR_QUOTA_USD_MONTH" },
} as const;
const DEFAULT_MAX_RATE_LIMIT_RPM = 600;
const DEFAULT_MAX_TOKENS_PER_TENANT = 50;
/** Each crawl fetches 4 pages at a time: 3 crawls are 12 requests in flight for one workspace. */
const DEFAULT_MAX_CRAWLS_PER_TENANT = 3;
/** A map crawl of 500 pages (its most) with one redirect per page on average, and the robots and sitemap reads. */
const DEFAULT_CRAWL_MAX_REQUESTS = 1_000;
/**
 * A new workspace's monthly cap across all providers: 1,000–2,000 paid provider calls at their usual
 * $0.005–0.01, about what the providers' free tiers give away, so evaluating costs little and a runaway agent
 * loop stops at $10 rather than at the end of the month (docs/decisions.md, "A default spend cap").
 */
const DEFAULT_MONTHLY_CAP_USD = 10;
const DEFAULT_MONTHLY_CAP_ENV = "SEARCHMUX_DEFAULT_MONTHLY_CAP_USD";

/** A limit variable set to `unlimited` (any case): no limit. */
const isUnlimited = (env: Readonly<Record<string, string | undefined>>, name: string) =>
  env[name]?.trim().toLowerCase() === "unlimited";

/** A number of at least `min` (`whole`: an integer); a bad value stops the start (config() validates). */
function numberVar(
  env: Readonly<Record<string, string | undefined>>,
  name: string,
  { min, whole, or }: { min: number; whole: boolean; or?: string },
) {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min || (whole && !Number.isInteger(value))) {
    const kind = `${whole ? "a whole number" : "a number"} of at least ${min}${or ? ` or ${or}` : ""}`;
    throw new Error(`${name} must be ${kind}, not "${raw}"`);
  }
  return value;
}

/** Each quota: its variable (a number, or `unlimited`), else the open sign-up default, else unlimited. */
export function tenantLimits(env: Readonly<Record<string, string | undefined>> = process.env): TenantLimits {
  // Company sign-in counts too: whoever the identity provider admits gets a workspace of their own.
  const openSignUp = Boolean(
    pair(env.GITHUB_ID?.trim(), env.GITHUB_SECRET?.trim()) ??
      pair(env.GOOGLE_ID?.trim(), env.GOOGLE_SECRET?.trim()) ??
      OIDC_VARIABLES.every((name) => env[name]?.trim()),
  );
  const operatorQuotas = OPEN_SIGN_UP_QUOTAS.flatMap((quota): OperatorQuota[] => {
    const name = QUOTA_ENV[quota.metric][quota.period];
    if (isUnlimited(env, name)) return [];
    const limit =
      numberVar(env, name, { min: 0, whole: quota.metric === "requests", or: '"unlimited"' }) ??
      (openSignUp ? quota.limit : undefined);
    return limit === undefined ? [] : [{ ...quota, limit }];
  });
  return {
    operatorQuotas,
    maxRateLimitRpm:
      numberVar(env, "SEARCHMUX_RATE_LIMIT_MAX_RPM", { min: 1, whole: true }) ?? DEFAULT_MAX_RATE_LIMIT_RPM,
    maxTokensPerTenant:
      numberVar(env, "SEARCHMUX_MAX_TOKENS_PER_TENANT", { min: 1, whole: true }) ??
      DEFAULT_MAX_TOKENS_PER_TENANT,
    maxCrawlsPerTenant:
      numberVar(env, "SEARCHMUX_MAX_CRAWLS_PER_TENANT", { min: 1, whole: true }) ??
      DEFAULT_MAX_CRAWLS_PER_TENANT,
    crawlMaxRequests:
      numberVar(env, "SEARCHMUX_CRAWL_MAX_REQUESTS", { min: 10, whole: true }) ?? DEFAULT_CRAWL_MAX_REQUESTS,
    defaultMonthlyCapUsd: isUnlimited(env, DEFAULT_MONTHLY_CAP_ENV)
      ? null
      : (numberVar(env, DEFAULT_MONTHLY_CAP_ENV, { min: 0, whole: false, or: '"unlimited"' }) ??
        DEFAULT_MONTHLY_CAP_USD),
  };
}

export function loadConfig(env: Readonly<Record<string, string | undefined>> = process.env): Config {
  const e = envSchema.parse(env);
  const production = e.NODE_ENV === "production";
  const driver = pickDriver(e.DATABASE_URL, e.SEARCHMUX_DB_DRIVER);
  return {
    production,
    database: {
      driver,
      url: e.DATABASE_URL,
      neonWsProxy: e.SEARCHMUX_NEON_WS_PROXY,
      shared: driver !== "embedded",
      poolSize: numberVar(env, "DATABASE_POOL_MAX", { min: 1, whole: true }) ?? DEFAULT_DATABASE_POOL_MAX,
    },
    dataDir: path.resolve(/*turbopackIgnore: true*/ e.SEARCHMUX_DATA_DIR ?? ".data"),
    auth: {
      secret: e.AUTH_SECRET,
      url: e.AUTH_URL,
      // The development sign-in never runs in production unless explicitly allowed.
      devLogin: e.AUTH_DEV_LOGIN && (!production || e.AUTH_DEV_LOGIN_ALLOW_PRODUCTION),
      devLoginNeedsProductionOverride: e.AUTH_DEV_LOGIN && production && !e.AUTH_DEV_LOGIN_ALLOW_PRODUCTION,
      github: pair(e.GITHUB_ID, e.GITHUB_SECRET),
      google: pair(e.GOOGLE_ID, e.GOOGLE_SECRET),
      oidc: oidcSignIn(env, production),
    },
    operator: {
      emails: (e.SEARCHMUX_OPERATOR_EMAILS ?? "")
        .split(",")
        .map((email) => email.trim().toLowerCase())
        .filter(Boolean),
      token: e.SEARCHMUX_OPERATOR_TOKEN,
    },
    logLevel: e.LOG_LEVEL ?? (e.NODE_ENV === "test" ? "silent" : "info"),
    limits: tenantLimits(env),
    allowedHosts: allowedHosts(env),
    trustedProxies: trustedProxies(env),
    serverless: Boolean(serverlessPlatform(env)),
  };
}

/**
 * The variable that says this runs on a serverless platform (VERCEL, AWS_LAMBDA_FUNCTION_NAME), which may
 * freeze the process once a response is sent and keeps nothing on its disk; undefined elsewhere.
 */
export function serverlessPlatform(env: Readonly<Record<string, string | undefined>>): string | undefined {
  return ["VERCEL", "AWS_LAMBDA_FUNCTION_NAME"].find((name) => env[name]?.trim());
}

/** One key-encryption key of SEARCHMUX_SECRET_KEY. */
export interface SecretKeyVersion {
  version: number;
  key: Buffer;
}

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * SEARCHMUX_SECRET_KEY's key-encryption keys, newest first: `2:<base64>,1:<base64>` (a bare `<base64>` is
 * version 1), each 32 bytes. Anything else throws one line naming the variable and what is wrong, never
 * the value: a malformed key stops the start (lib/deploy-check.ts) instead of failing every key use.
 */
export function secretKeyVersions(value: string): [SecretKeyVersion, ...SecretKeyVersion[]] {
  const name = "SEARCHMUX_SECRET_KEY";
  const entries = value
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part, index): SecretKeyVersion => {
      const [version, encoded = ""] = part.includes(":") ? part.split(":", 2) : ["1", part];
      const n = Number(version);
      const which = `entry ${index + 1} of ${name}`;
      if (!/^\d+$/.test(version ?? "") || n < 1 || n > 32767)
        throw new Error(`${which} must be <version>:<base64 key> with a version from 1 to 32767`);
      const key = Buffer.from(encoded, "base64");
      if (!BASE64.test(encoded) || key.length !== 32)
        throw new Error(
          `${name}: the key of version ${n} must be 32 bytes of base64 (\`openssl rand -base64 32\`), ` +
            `not ${BASE64.test(encoded) ? `${key.length} bytes` : "something else"}`,
        );
      return { version: n, key };
    });
  const [newest, ...older] = entries;
  if (!newest) throw new Error(`${name} holds no key`);
  if (new Set(entries.map(({ version }) => version)).size !== entries.length)
    throw new Error(`${name} names a version twice`);
  return [newest, ...older];
}

/**
 * When some but not all variables of a set that only works together are set (blank counts as unset): a
 * message naming the missing ones. Such a set is otherwise ignored, which hides the mistake.
 */
export function incompleteSet(
  env: Readonly<Record<string, string | undefined>>,
  names: readonly string[],
  what: string,
): string | undefined {
  const set = names.filter((name) => env[name]?.trim());
  const missing = names.filter((name) => !env[name]?.trim());
  if (set.length === 0 || missing.length === 0) return undefined;
  const all = names.length === 2 ? "both (or neither)" : `all ${names.length} (or none)`;
  return `${missing.join(" and ")} ${missing.length === 1 ? "is" : "are"} missing: ${set.join(" and ")} ${set.length === 1 ? "is" : "are"} set, and ${what} needs ${all}`;
}

/** Where the KV store lives (see kvStore). */
export type KvStoreConfig =
  | { kind: "upstash"; url: string; token: string }
  | { kind: "redis"; url: string }
  /** In this process, within `maxBytes` (SEARCHMUX_MEMORY_KV_MB). */
  | { kind: "memory"; maxBytes: number };

/**
 * The in-memory KV's default budget: ~300 fetched pages or thousands of searches. With the 256 MB heap of
 * npm start the server stays under 400 MB however much distinct traffic it serves (bench soak).
 */
export const DEFAULT_MEMORY_KV_MB = 32;

/**
 * The in-memory KV's budget from SEARCHMUX_MEMORY_KV_MB (megabytes, a positive number), else the
 * default; anything else is a configuration error rather than an unbounded store.
 */
export function memoryKvBytes(env: Readonly<Record<string, string | undefined>>): number {
  const raw = env.SEARCHMUX_MEMORY_KV_MB?.trim();
  if (!raw) return DEFAULT_MEMORY_KV_MB * 1024 * 1024;
  const megabytes = Number(raw);
  if (!Number.isFinite(megabytes) || megabytes <= 0) {
    throw new Error(`SEARCHMUX_MEMORY_KV_MB must be a positive number of megabytes, not '${raw}'`);
  }
  return Math.floor(megabytes * 1024 * 1024);
}

/**
 * Upstash's REST credentials under their two names, in order of precedence: Vercel's Upstash (formerly
 * Vercel KV) integration sets KV_REST_API_*, Upstash's own integration and console UPSTASH_REDIS_REST_*.
 * A project with both normally points them at one database; the first pair wins.
 */
const UPSTASH_PAIRS = [
  { url: "KV_REST_API_URL", token: "KV_REST_API_TOKEN" },
  { url: "UPSTASH_REDIS_REST_URL", token: "UPSTASH_REDIS_REST_TOKEN" },
] as const;

/**
 * Upstash over REST when a pair is set (before REDIS_URL: Vercel's integration sets REDIS_URL too, and a
 * serverless function cannot keep a TCP connection), else Redis at REDIS_URL, else in memory. Blank values
 * count as unset. Half of a pair is an error naming the missing variable, not a silent fallback to a store
 * the other instances do not share.
 */
export function kvStore(env: Readonly<Record<string, string | undefined>> = process.env): KvStoreConfig {
  const value = (name: string) => env[name]?.trim() || undefined;
  for (const { url, token } of UPSTASH_PAIRS) {
    const half = incompleteSet(env, [url, token], "the Upstash store");
    if (half) throw new Error(half);
  }
  const pairs = UPSTASH_PAIRS.map((names) => ({ url: value(names.url), token: value(names.token) }));
  const upstash = pairs.find((pair) => pair.url && pair.token);
  if (upstash?.url && upstash.token) return { kind: "upstash", url: upstash.url, token: upstash.token };
  const redisUrl = value("REDIS_URL");
  return redisUrl ? { kind: "redis", url: redisUrl } : { kind: "memory", maxBytes: memoryKvBytes(env) };
}

let cached: Config | undefined;
export function config(): Config {
  cached ??= loadConfig();
  return cached;
}

/**
 * The proxies in front of the app, which append the address they received a request from to
 * X-Forwarded-For. `none`: nothing in that header is believed (a client can write anything there).
 */
export type TrustedProxies =
  | { kind: "none" }
  /** This many proxies, each appending one entry: the client is that many entries from the right. */
  | { kind: "hops"; count: number }
  /** Proxies known by address: the client is the rightmost entry outside these. */
  | { kind: "addresses"; list: BlockList };

/**
 * SEARCHMUX_TRUSTED_PROXIES: a number of proxy hops, or comma-separated IP addresses and CIDRs. Unset on
 * Vercel (VERCEL=1), whose edge overwrites X-Forwarded-For with the client's address: one hop.
 */
export function trustedProxies(
  env: Readonly<Record<string, string | undefined>> = process.env,
): TrustedProxies {
  const raw = env.SEARCHMUX_TRUSTED_PROXIES?.trim();
  if (!raw) return env.VERCEL?.trim() === "1" ? { kind: "hops", count: 1 } : { kind: "none" };
  if (/^\d+$/.test(raw)) {
    const count = Number(raw);
    return count === 0 ? { kind: "none" } : { kind: "hops", count };
  }
  const list = new BlockList();
  for (const entry of raw.split(",")) {
    const [address = "", bits, extra] = entry.trim().split("/");
    const family = isIP(address);
    const max = family === 4 ? 32 : 128;
    const prefix = bits === undefined ? max : /^\d+$/.test(bits) ? Number(bits) : -1;
    if (family === 0 || extra !== undefined || prefix < 0 || prefix > max) {
      throw new Error(
        `SEARCHMUX_TRUSTED_PROXIES must be a number of hops or IP addresses and CIDRs, not "${entry.trim()}"`,
      );
    }
    list.addSubnet(address, prefix, family === 4 ? "ipv4" : "ipv6");
  }
  return { kind: "addresses", list };
}

/** A name a Host header may carry; without a port, on any port. */
export interface AllowedHost {
  /** Lower case; an IPv6 address in brackets, as in a Host header. */
  name: string;
  port?: string;
}

/** The loopback names, on any port: where a local server is reached when nothing else is configured. */
export const LOOPBACK_HOSTS: readonly AllowedHost[] = [
  { name: "localhost" },
  { name: "127.0.0.1" },
  { name: "[::1]" },
];

/**
 * `host` or `host:port` as a Host header carries it, or null when it is anything else (a path, user info,
 * a bad port): a name of letters, digits, dots, hyphens and underscores, or an IPv6 address in brackets.
 */
export function splitHost(value: string): AllowedHost | null {
  const match = /^(\[[0-9a-f:.]+\]|[a-z0-9._-]+)(?::(\d{1,5}))?$/i.exec(value);
  const [, name, port] = match ?? [];
  if (!name || (port !== undefined && (Number(port) < 1 || Number(port) > 65_535))) return null;
  return port === undefined ? { name: name.toLowerCase() } : { name: name.toLowerCase(), port };
}

/**
 * AUTH_URL's host (with its port when it names one) and SEARCHMUX_ALLOWED_HOSTS (comma-separated
 * `host[:port]`); when neither is set, the loopback names. A page on another name that resolves to this
 * server (DNS rebinding) arrives with that name as its Host and is refused.
 */
export function allowedHosts(env: Readonly<Record<string, string | undefined>> = process.env): AllowedHost[] {
  const listed = (env.SEARCHMUX_ALLOWED_HOSTS ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const host = splitHost(entry);
      if (!host)
        throw new Error(`SEARCHMUX_ALLOWED_HOSTS must list host or host:port entries, not "${entry}"`);
      return host;
    });
  const publicUrl = env.AUTH_URL?.trim();
  const publicHost = publicUrl && URL.canParse(publicUrl) ? splitHost(new URL(publicUrl).host) : null;
  const hosts = publicHost ? [publicHost, ...listed] : listed;
  return hosts.length > 0 ? hosts : [...LOOPBACK_HOSTS];
}
