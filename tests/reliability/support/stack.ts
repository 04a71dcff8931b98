/**
 * Everything a test against `next start` needs, started in order and closed in reverse: the fake
 * provider server (five providers answering in `providerLatencyMs`), a loopback site with pages to
 * fetch, a fresh database (PostgreSQL when DATABASE_URL is set, else the embedded one), the tests' Redis, a
 * production build, and app instances sharing all of it. A test-side platform on the same database and
 * Redis seeds tenants and reads the ledger.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Platform } from "@/lib/pipeline/context";
import { parseKeyring } from "@/lib/pipeline/keys/key-encryption";
import { type FakeProviders, startFakeProviders } from "@/tests/fakes/provider-server";
import { databaseTargets, type TestDatabase } from "@/tests/support/database";
import { testPlatform } from "@/tests/support/platform";
import { deleteAppKeys, testRedisKv, testRedisUrl } from "@/tests/support/test-redis";
import { type Site, type SiteRoute, startSite } from "@/tests/unit/fetch/site-server";
import { article } from "./article";
import { type DelayRelay, startDelayRelay, throughRelay } from "./delay-relay";
import { createLocalCa } from "./local-ca";
import { freePort, type NextServer, startNextServer } from "./next-server";
import { type EnvVars, ensureProductionBuild } from "./production-build";
import { FIVE_PROVIDERS, operatorKeyIds, runSecrets, serverEnv } from "./server-env";

export interface StackOptions {
  providerLatencyMs?: number;
  /** The search providers with operator keys and the fixed latency (FIVE_PROVIDERS by default). */
  providers?: readonly string[];
  /** Fake providers over HTTPS (a local authority the app instances trust), as real providers are. */
  fakeTls?: boolean;
  instances?: number;
  /** Pages served at /page/<i>, each about `pageBytes`. */
  pages?: number;
  pageBytes?: number;
  /** More routes of the page site (documents, hostile bodies). */
  siteRoutes?: Readonly<Record<string, SiteRoute>>;
  /** The operator's default per-token rate limit. */
  rateLimitRpm?: number;
  /** Per instance: extra env (e.g. AUTH_URL) and node options (e.g. a probe). */
  instanceEnv?: (port: number) => EnvVars;
  nodeOptions?: string;
  /**
   * Network distance between the app instances and PostgreSQL and Redis: a relay adding this round-trip
   * time in front of each (the embedded database is a socket server too). The test-side platform stays
   * direct.
   */
  relayRttMs?: number;
  /** The instances keep KV in their own memory (zero configuration) instead of the tests' Redis. */
  memoryKv?: boolean;
}

/** The relays in front of the stack's services, to count the round trips the app makes. */
export interface StackRelays {
  database: DelayRelay;
  /** Absent with memoryKv. */
  redis?: DelayRelay;
}

export interface Stack {
  fake: FakeProviders;
  site: Site;
  pageUrl(i: number): string;
  database: TestDatabase;
  databaseName: "pglite" | "postgres";
  platform: Platform;
  servers: NextServer[];
  relays?: StackRelays;
  /** Starts one more instance on the shared data (on `port` to restart one in place). */
  startInstance(port?: number): Promise<NextServer>;
  close(): Promise<void>;
}

export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const target = databaseTargets().at(-1);
  if (!target) throw new Error("no database target");
  await ensureProductionBuild((line) => console.log(line));

  const providers = options.providers ?? FIVE_PROVIDERS;
  const ca = options.fakeTls ? createLocalCa() : undefined;
  const fake = await startFakeProviders({}, { tls: ca });
  for (const id of providers) fake.setScenario(id, { latencyMs: options.providerLatencyMs ?? 50 });
  const pages = options.pages ?? 20;
  const routes = Object.fromEntries(
    Array.from({ length: pages }, (_, i) => [
      `/page/${i}`,
      { body: article(options.pageBytes ?? 8_000, `Page ${i}`) },
    ]),
  );
  const site = await startSite({ ...routes, ...options.siteRoutes });
  const database = await target.create({ poolSize: 4 });
  const kv = testRedisKv();
  const platform = testPlatform(database.db, { kv, keyring: parseKeyring(runSecrets.SEARCHMUX_SECRET_KEY) });
  const dataDir = mkdtempSync(path.join(tmpdir(), "smx-reliability-"));
  const redisUrl = options.memoryKv ? undefined : testRedisUrl();
  const relays =
    options.relayRttMs === undefined
      ? undefined
      : await startRelays(database.url, redisUrl, options.relayRttMs);
  const env = serverEnv({
    fakeOrigin: fake.url,
    databaseUrl: relays ? throughRelay(database.url, relays.database) : database.url,
    redisUrl: redisUrl && relays?.redis ? throughRelay(redisUrl, relays.redis) : (redisUrl ?? ""),
    rateLimitRpm: options.rateLimitRpm,
    dataDir,
    keyedProviders: providers,
    extra: ca ? { NODE_EXTRA_CA_CERTS: ca.caFile } : undefined,
  });

  const servers: NextServer[] = [];
  const startInstance = async (wanted?: number) => {
    const port = wanted ?? (await freePort());
    const server = await startNextServer({
      port,
      env: { ...env, ...options.instanceEnv?.(port) },
      nodeOptions: options.nodeOptions,
    });
    servers.push(server);
    return server;
  };
  try {
    for (let i = 0; i < (options.instances ?? 1); i++) await startInstance();
  } catch (error) {
    await Promise.all(servers.map((s) => s.stop("SIGKILL")));
    await Promise.all([fake.close(), site.close(), kv.close(), closeRelays(relays), database.cleanup()]);
    rmSync(dataDir, { recursive: true, force: true });
    ca?.remove();
    throw error;
  }

  return {
    fake,
    site,
    pageUrl: (i) => `${site.url}/page/${i % pages}`,
    database,
    databaseName: target.name,
    platform,
    servers,
    relays,
    startInstance,
    async close() {
      await Promise.all(servers.map((s) => s.stop("SIGTERM")));
      await platform.traces.flush();
      await Promise.all([fake.close(), site.close(), kv.close(), closeRelays(relays)]);
      await deleteAppKeys(database.db, operatorKeyIds(providers));
      await database.cleanup();
      rmSync(dataDir, { recursive: true, force: true });
      ca?.remove();
    },
  };
}

async function startRelays(
  databaseUrl: string,
  redisUrl: string | undefined,
  rttMs: number,
): Promise<StackRelays> {
  const endpoint = (url: string, defaultPort: number) => {
    const parsed = new URL(url);
    return { host: parsed.hostname, port: Number(parsed.port || defaultPort) };
  };
  const [databaseRelay, redis] = await Promise.all([
    startDelayRelay({ target: endpoint(databaseUrl, 5432), rttMs }),
    redisUrl ? startDelayRelay({ target: endpoint(redisUrl, 6379), rttMs }) : undefined,
  ]);
  return { database: databaseRelay, redis };
}

async function closeRelays(relays: StackRelays | undefined): Promise<void> {
  await Promise.all([relays?.database.close(), relays?.redis?.close()]);
}
