/**
 * The environment of an app instance under test: every provider of every tool pointed at the fake
 * provider server (so nothing leaves the machine, even for a provider the test did not mean to call),
 * operator keys for the keyed providers a test uses, the shared database and KV, fixed secrets (so
 * several instances agree), and the loopback fetch allow-list for the test pages.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { keyId } from "@/lib/pipeline/rate-limit/provider-pause";
import { searchProviders } from "@/lib/providers/search";
import type { FakeProviders } from "@/tests/fakes/provider-server";
import { fakeProviderEnv } from "@/tests/support/provider-env";
import type { EnvVars } from "./production-build";

/** Five providers of the fake server: four keyed (operator keys) and SearXNG (keyless, by URL). */
export const FIVE_PROVIDERS = ["brave", "tavily", "serper", "exa", "searxng"] as const;
/** Ten: the five and five more keyed ones, for a fan-out as wide as a well-stocked workspace's. */
export const TEN_PROVIDERS = [...FIVE_PROVIDERS, "serpapi", "kagi", "you", "linkup", "perplexity"] as const;

export interface ServerEnvOptions {
  /** Fake provider server origin (`fake.url`), or a fixed one for a server started elsewhere. */
  fakeOrigin: string;
  databaseUrl: string;
  /** Empty: in-memory KV (one instance only). */
  redisUrl: string;
  /** SEARCHMUX_DATA_DIR (a new temporary directory when omitted). */
  dataDir?: string;
  /** Search providers given an operator key. */
  keyedProviders?: readonly string[];
  /** Per-token requests per minute (the operator default). */
  rateLimitRpm?: number;
  extra?: EnvVars;
}

/** Secrets every instance of one test run shares. */
export const runSecrets = {
  SEARCHMUX_SECRET_KEY: `1:${randomBytes(32).toString("base64")}`,
  AUTH_SECRET: randomBytes(32).toString("hex"),
};

/**
 * Every provider at the fake server (tests/support/provider-env.ts), SearXNG configured there too, and
 * operator keys for the `keyed` search providers.
 */
/** The operator's key of a keyed provider, the same in every run. */
const fakeOperatorKey = (id: string) => `fake-operator-${id}-key`;

function fakeOperatorEnv(fakeOrigin: string, keyed: readonly string[]): EnvVars {
  const env: EnvVars = { ...fakeProviderEnv(fakeOrigin), SEARXNG_URL: `${fakeOrigin}/searxng` };
  for (const id of keyed) {
    const provider = searchProviders.find((p) => p.id === id);
    const keyEnv = provider?.keyEnv[0];
    if (keyEnv) env[keyEnv] = fakeOperatorKey(id);
  }
  return env;
}

/**
 * The ids under which KV keeps the rate-limit state of the operator's keys of `keyed` (a pause, a learned
 * per-second limit, send slots: lib/pipeline/rate-limit/), for the clean-up: the keys are the same in every
 * run, so state left behind would reach the next run.
 */
export const operatorKeyIds = (keyed: readonly string[]): string[] =>
  keyed.map((id) => keyId(id, fakeOperatorKey(id)));

export function serverEnv(options: ServerEnvOptions): EnvVars {
  return {
    ...fakeOperatorEnv(options.fakeOrigin, options.keyedProviders ?? FIVE_PROVIDERS),
    ...runSecrets,
    DATABASE_URL: options.databaseUrl,
    REDIS_URL: options.redisUrl,
    KV_REST_API_URL: "",
    KV_REST_API_TOKEN: "",
    SEARCHMUX_DATA_DIR: options.dataDir ?? mkdtempSync(path.join(tmpdir(), "smx-reliability-")),
    SEARCHMUX_RATE_LIMIT_RPM: String(options.rateLimitRpm ?? 100_000_000),
    SEARCHMUX_FETCH_ALLOWLIST: "127.0.0.1",
    ...options.extra,
  };
}

/** Fake server wiring for tests that call verbs in process (Platform.env), same rules as serverEnv. */
export function verbEnv(
  fake: FakeProviders,
  keyed: readonly string[] = FIVE_PROVIDERS,
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(fakeOperatorEnv(fake.url, keyed)).filter((entry): entry is [string, string] => !!entry[1]),
  );
}
