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
import { answerProviders } from "@/lib/providers/answer";
import { fetchProviders } from "@/lib/providers/fetch";
import { paperProviders } from "@/lib/providers/papers";
import { searchProviders } from "@/lib/providers/search";
import type { FakeProviders } from "@/tests/fakes/provider-server";
import type { EnvVars } from "./production-build";

/** Five providers of the fake server: four keyed (operator keys) and SearXNG (keyless, by URL). */
export const FIVE_PROVIDERS = ["brave", "tavily", "serper", "exa", "searxng"] as const;

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

export function fakeProviderEnv(fakeOrigin: string, keyed: readonly string[]): EnvVars {
  const env: EnvVars = {};
  for (const provider of [...answerProviders, ...fetchProviders, ...paperProviders, ...searchProviders]) {
    if (provider.baseUrlEnv) env[provider.baseUrlEnv] = `${fakeOrigin}/${provider.id}`;
  }
  // The search wires are the ones the fake server answers; search ids win over other tools' prefixes.
  for (const provider of searchProviders) {
    if (provider.baseUrlEnv) env[provider.baseUrlEnv] = `${fakeOrigin}/${provider.id}`;
  }
  for (const id of keyed) {
    const provider = searchProviders.find((p) => p.id === id);
    const keyEnv = provider?.keyEnv[0];
    if (keyEnv) env[keyEnv] = `fake-operator-${id}-key`;
  }
  return env;
}

export function serverEnv(options: ServerEnvOptions): EnvVars {
  return {
    ...fakeProviderEnv(options.fakeOrigin, options.keyedProviders ?? FIVE_PROVIDERS),
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
    Object.entries(fakeProviderEnv(fake.url, keyed)).filter((entry): entry is [string, string] => !!entry[1]),
  );
}
