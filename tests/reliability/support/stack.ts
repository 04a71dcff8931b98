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
import type { Platform } from "@/lib/services/context";
import { parseKeyring } from "@/lib/services/keys/key-encryption";
import { type FakeProviders, startFakeProviders } from "@/tests/fakes/provider-server";
import { databaseTargets, type TestDatabase } from "@/tests/support/database";
import { testPlatform } from "@/tests/support/platform";
import { deleteAppKeys, testRedisKv, testRedisUrl } from "@/tests/support/test-redis";
import { type Site, type SiteRoute, startSite } from "@/tests/unit/fetch/site-server";
import { article } from "./article";
import { freePort, type NextServer, startNextServer } from "./next-server";
import { type EnvVars, ensureProductionBuild } from "./production-build";
import { FIVE_PROVIDERS, runSecrets, serverEnv } from "./server-env";

export interface StackOptions {
  providerLatencyMs?: number;
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
}

export interface Stack {
  fake: FakeProviders;
  site: Site;
  pageUrl(i: number): string;
  database: TestDatabase;
  databaseName: "pglite" | "postgres";
  platform: Platform;
  servers: NextServer[];
  /** Starts one more instance on the shared data (on `port` to restart one in place). */
  startInstance(port?: number): Promise<NextServer>;
  close(): Promise<void>;
}

export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const target = databaseTargets().at(-1);
  if (!target) throw new Error("no database target");
  await ensureProductionBuild((line) => console.log(line));

  const fake = await startFakeProviders();
  for (const id of FIVE_PROVIDERS) fake.setScenario(id, { latencyMs: options.providerLatencyMs ?? 50 });
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
  const env = serverEnv({
    fakeOrigin: fake.url,
    databaseUrl: database.url,
    redisUrl: testRedisUrl(),
    rateLimitRpm: options.rateLimitRpm,
    dataDir,
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
    await Promise.all([fake.close(), site.close(), kv.close(), database.cleanup()]);
    rmSync(dataDir, { recursive: true, force: true });
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
    startInstance,
    async close() {
      await Promise.all(servers.map((s) => s.stop("SIGTERM")));
      await platform.traces.flush();
      await Promise.all([fake.close(), site.close(), kv.close()]);
      await deleteAppKeys(database.db);
      await database.cleanup();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
