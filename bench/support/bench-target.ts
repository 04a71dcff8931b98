/**
 * The server a benchmark runs against, with what the scenarios need around it: the fake providers, a
 * 500 KB article to fetch, the server's pid (for its RSS) and its database URL (to seed a tenant and to
 * run the admission scenario). Either a fresh `next start` (production build made when stale) on a
 * fresh database, or a server started elsewhere (`--server=URL`), whose provider base URLs point at a
 * fixed port this process forwards to its fake providers (`--print-env` prints that environment).
 */
import { tmpdir } from "node:os";
import { createDatabase, type Database } from "@/lib/db/client";
import { type FakeProviderId, type FakeProviders, startFakeProviders } from "@/tests/fakes/provider-server";
import { article } from "@/tests/reliability/support/article";
import { pidListeningOn } from "@/tests/reliability/support/process-memory";
import { FIVE_PROVIDERS, serverEnv, TEN_PROVIDERS } from "@/tests/reliability/support/server-env";
import { type StackRelays, startStack } from "@/tests/reliability/support/stack";
import { startSite } from "@/tests/unit/fetch/site-server";
import { startForwarder } from "./forwarder";

export const PROVIDER_LATENCY_MS = 200;
export const PAGE_BYTES = 500 * 1024;

export interface BenchTarget {
  url: string;
  /** The node process serving `url`. */
  pid: number;
  fake: FakeProviders;
  /** The 500 KB article. */
  pageUrl: string;
  databaseUrl: string;
  /** The search providers a fan-out asks, each answering in PROVIDER_LATENCY_MS. */
  providers: readonly FakeProviderId[];
  /** Whether the fake providers speak HTTPS. */
  tls: boolean;
  /** "postgres", "embedded" (PGlite) or "attached". */
  databaseName: string;
  db: Database;
  /** With a network distance (--rtt): the relays in front of the database and KV, counting round trips. */
  relays?: StackRelays;
  close(): Promise<void>;
}

export function setProviderLatency(fake: FakeProviders, providers: readonly string[]): void {
  for (const id of providers) fake.setScenario(id, { latencyMs: PROVIDER_LATENCY_MS });
}

/**
 * A fresh production server on a fresh database (PostgreSQL with DATABASE_URL, else embedded), ten fake
 * providers over HTTPS, and `relayRttMs` of network distance to its database and KV when given.
 */
export async function ownServer({
  relayRttMs,
  nodeOptions,
}: {
  relayRttMs?: number;
  nodeOptions?: string;
} = {}): Promise<BenchTarget> {
  const stack = await startStack({
    providerLatencyMs: PROVIDER_LATENCY_MS,
    pages: 1,
    pageBytes: PAGE_BYTES,
    relayRttMs,
    nodeOptions,
    providers: TEN_PROVIDERS,
    fakeTls: true,
    // Zero configuration is what a new user runs: without REDIS_URL the server keeps KV in memory.
    memoryKv: !process.env.REDIS_URL?.trim(),
  });
  const [server] = stack.servers;
  if (!server) throw new Error("no server started");
  return {
    url: server.url,
    pid: server.pid,
    fake: stack.fake,
    pageUrl: stack.pageUrl(0),
    databaseUrl: stack.database.url,
    providers: TEN_PROVIDERS,
    tls: true,
    databaseName: stack.databaseName === "pglite" ? "embedded" : "postgres",
    db: stack.database.db,
    relays: stack.relays,
    close: () => stack.close(),
  };
}

/** The environment a server must be started with for `attachTo(…, fakePort)`. */
export function attachedServerEnv(fakePort: number, databaseUrl: string): Record<string, string | undefined> {
  return serverEnv({
    fakeOrigin: `http://127.0.0.1:${fakePort}`,
    databaseUrl,
    redisUrl: process.env.REDIS_URL ?? "",
  });
}

/** A server started elsewhere with attachedServerEnv(fakePort, databaseUrl). */
export async function attachTo(url: string, fakePort: number, databaseUrl: string): Promise<BenchTarget> {
  const pid = pidListeningOn(Number(new URL(url).port));
  if (pid === undefined) throw new Error(`no process listens on ${url}`);
  const fake = await startFakeProviders();
  setProviderLatency(fake, FIVE_PROVIDERS);
  const forwarder = await startForwarder(fakePort, fake.url);
  const site = await startSite({ "/article": { body: article(PAGE_BYTES) } });
  const db = await createDatabase({ driver: "pg", url: databaseUrl, dataDir: tmpdir(), poolSize: 4 });
  return {
    url,
    pid,
    fake,
    pageUrl: `${site.url}/article`,
    databaseUrl,
    providers: FIVE_PROVIDERS,
    tls: false,
    databaseName: "attached",
    db,
    async close() {
      await Promise.all([forwarder.close(), fake.close(), site.close(), db.close()]);
    },
  };
}
