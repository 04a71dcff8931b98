/**
 * The benchmark: `npm run bench` (options after `--`).
 *
 *   npm run bench                                   a fresh `next start` (builds when stale) on a fresh database
 *   npm run bench -- --duration=10 --connections=50 --only=cached-rest,fanout
 *   DATABASE_URL=… REDIS_URL=… npm run bench -- --rtt=2   2 ms of network distance to PostgreSQL and Redis
 *   npm run bench -- --label=embedded              results in bench/results/<date>-embedded.json
 *   npm run bench -- --only=auto-fanout --corpus=FILE   auto vs fanout on another corpus (bench/README.md)
 *   npm run bench -- --print-env --fake-port=3398   environment for a server to benchmark in place …
 *   npm run bench -- --server=http://127.0.0.1:3000 --fake-port=3398   … and the run against it
 *
 * With DATABASE_URL (and REDIS_URL) set the server runs self-hosted on a fresh PostgreSQL database and
 * Redis; without, zero-configuration (embedded database, in-memory KV). An attached server must use
 * DATABASE_URL's database. Prints a table (figures, targets met or missed) and writes
 * bench/results/<date>.json. Scenarios: see bench/README.md.
 */
import os from "node:os";
import { SCOPES } from "@/lib/pipeline/context";
import { measuredRoundTripMs } from "@/tests/reliability/support/delay-relay";
import type { LoadCall } from "@/tests/reliability/support/load";
import {
  mcpHeaders,
  modernMcpHeaders,
  modernToolCallBody,
  toolCallBody,
} from "@/tests/reliability/support/mcp";
import { seedTenant, UNREACHED_SPEND_CAP } from "@/tests/reliability/support/tenant";
import { testPlatform } from "@/tests/support/platform";
import { admissions } from "./scenarios/admissions";
import { autoFanout } from "./scenarios/auto-fanout";
import { engineFanout } from "./scenarios/engine-fanout";
import { failingProvider } from "./scenarios/failing-provider";
import { uncachedFanout } from "./scenarios/fanout";
import { fetchEngineOnly, fetchThroughApi } from "./scenarios/fetch-page";
import { fusion } from "./scenarios/fusion";
import { throughput } from "./scenarios/http-throughput";
import { hungProvider } from "./scenarios/hung-provider";
import { largePages } from "./scenarios/large-pages";
import { logCost } from "./scenarios/log-cost";
import type { ScenarioId, ScenarioResult } from "./scenarios/scenario";
import { soak } from "./scenarios/soak";
import { attachedServerEnv, attachTo, type BenchTarget, ownServer } from "./support/bench-target";
import { booleanFlag, numberFlag, stringFlag } from "./support/flags";
import { corpusOfFlags } from "./support/relevance-corpus";
import { machine, printTable, writeResults } from "./support/report";
import { printToolListSizes, toolListSizes } from "./tool-list-size";

const config = {
  durationSeconds: numberFlag("duration", 10),
  connections: numberFlag("connections", 50),
  fanoutRequests: numberFlag("fanout", 200),
  fanoutInFlight: 10,
  hungCalls: 10,
  fetchRuns: numberFlag("fetch-runs", 60),
  largePageRuns: numberFlag("large-page-runs", 3),
  fusionRuns: 2_000,
  logTurns: numberFlag("log-turns", 5_000),
  admissions: { attempts: 1_000, cap: 900, concurrency: 50 },
  soakSeconds: numberFlag("soak", 600),
};
const only = stringFlag("only")?.split(",");
const relayRttMs = stringFlag("rtt") === undefined ? undefined : numberFlag("rtt", 2);
/** NODE_OPTIONS of the bench's own server, e.g. heap limits to compare (--node-options="--max-old-space-size=256"). */
const nodeOptions = stringFlag("node-options");
const wanted = (id: ScenarioId) => !only || only.includes(id);

function cachedSearchCalls(
  token: string,
  providers: readonly string[],
): { rest: LoadCall; mcp: LoadCall; mcp2026: LoadCall } {
  const args = { query: "bench cached query", providers };
  return {
    rest: {
      kind: "search",
      method: "POST",
      path: "/api/v1/search",
      headers: () => ({ authorization: `Bearer ${token}`, "content-type": "application/json" }),
      body: () => JSON.stringify(args),
    },
    mcp: {
      kind: "mcp",
      method: "POST",
      path: "/api/mcp",
      headers: () => mcpHeaders(token),
      body: (n) => toolCallBody("web_search", args, n),
    },
    mcp2026: {
      kind: "mcp",
      method: "POST",
      path: "/api/mcp",
      headers: () => modernMcpHeaders(token, "tools/call", "web_search"),
      body: (n) => modernToolCallBody("web_search", args, n),
    },
  };
}

/** Fills the cache (REST and MCP share it) and checks that the next call is a hit. */
async function warmCache(target: BenchTarget, call: LoadCall): Promise<void> {
  for (let i = 0; i < 2; i++) {
    const response = await fetch(`${target.url}${call.path}`, {
      method: call.method,
      headers: call.headers(0),
      body: call.body?.(0),
    });
    const reply = (await response.json()) as { cache_hit?: boolean };
    if (i === 1 && reply.cache_hit !== true) throw new Error("the cached scenarios would not be cached");
  }
}

async function run(target: BenchTarget): Promise<ScenarioResult[]> {
  // A budget on every provider, as a workspace that spends free tiers first has: each call is admitted. And a
  // spend cap across all providers, as every new workspace has, that the scenarios never reach.
  const budgets = [
    UNREACHED_SPEND_CAP,
    ...target.providers.map((provider) => ({
      provider,
      metric: "requests" as const,
      period: "month" as const,
      limit: 100_000_000,
    })),
  ];
  const { token } = await seedTenant(testPlatform(target.db), {
    name: "bench",
    scopes: [...SCOPES],
    budgets,
  });
  const cached = cachedSearchCalls(token, target.providers);
  await warmCache(target, cached.rest);
  const http = { connections: config.connections, durationSeconds: config.durationSeconds };
  const results: ScenarioResult[] = [];
  const step = async <T extends ScenarioResult | undefined>(id: ScenarioId, work: () => Promise<T>) => {
    if (!wanted(id)) return undefined;
    console.log(`… ${id}`);
    target.relays?.database.resetRoundTrips();
    target.relays?.redis?.resetRoundTrips();
    const result = await work();
    if (result && target.relays && result.rssOf === "server" && result.samples > 0) {
      result.roundTripsPerCall = {
        database: target.relays.database.roundTrips() / result.samples,
        kv: (target.relays.redis?.roundTrips() ?? 0) / result.samples,
      };
    }
    if (result) results.push(result);
    return result;
  };

  await step("floor", () =>
    throughput(
      target,
      {
        id: "floor",
        title: "GET of an unknown /api path (the framework's floor: a handler that reads nothing)",
        call: { kind: "floor", method: "GET", path: "/api/bench-floor", headers: () => ({}) },
        status: 404,
      },
      http,
    ),
  );
  const health = await step("health", () =>
    throughput(
      target,
      {
        id: "health",
        title: "GET /api/health (baseline)",
        call: { kind: "health", method: "GET", path: "/api/health", headers: () => ({}) },
      },
      http,
    ),
  );
  const cachedRest = await step("cached-rest", () =>
    throughput(target, { id: "cached-rest", title: "cached REST search", call: cached.rest }, http, health),
  );
  await step("cached-rest-single", () =>
    throughput(
      target,
      { id: "cached-rest-single", title: "cached REST search, 1 connection", call: cached.rest },
      { connections: 1, durationSeconds: Math.min(5, config.durationSeconds) },
      health,
    ),
  );
  await step("cached-mcp", () =>
    throughput(target, { id: "cached-mcp", title: "cached MCP web_search", call: cached.mcp }, http, health),
  );
  await step("cached-mcp-2026", () =>
    throughput(
      target,
      { id: "cached-mcp-2026", title: "cached MCP web_search, revision 2026-07-28", call: cached.mcp2026 },
      http,
      health,
    ),
  );
  await step("fanout-single", () =>
    uncachedFanout(target, token, { requests: Math.ceil(config.fanoutRequests / 5), concurrency: 1 }),
  );
  const fanout = await step("fanout", () =>
    uncachedFanout(target, token, { requests: config.fanoutRequests, concurrency: config.fanoutInFlight }),
  );
  await step("fanout-engine", () =>
    engineFanout(target, { queries: config.fanoutRequests, concurrency: config.fanoutInFlight }, fanout),
  );
  await step("hung-provider", () => hungProvider(target, token, config.hungCalls));
  const fetched = await step("fetch", () => fetchThroughApi(target, token, config.fetchRuns));
  await step("fetch-engine", () => fetchEngineOnly(target, config.fetchRuns, fetched));
  await step("large-pages", () => largePages(config.largePageRuns));
  await step("fusion", () => fusion(config.fusionRuns));
  // Each request writes one line: its cost as a share of a core at the cached REST rate of this run.
  await step("log-cost", () => logCost(config.logTurns, Math.round(cachedRest?.requestsPerSecond ?? 600)));
  await step("admissions", () => admissions(target, config.admissions));
  await step("failing-provider", () => failingProvider(target, 20));
  await step("auto-fanout", () => autoFanout(target.db, corpusOfFlags()));
  await step("soak", () => soak(target, token, config.soakSeconds));
  return results;
}

async function main(): Promise<void> {
  const fakePort = numberFlag("fake-port", 3398);
  const server = stringFlag("server");
  const databaseUrl = process.env.DATABASE_URL?.trim() ?? "";
  if (booleanFlag("print-env") || server) {
    if (!databaseUrl)
      throw new Error("benchmarking a running server needs DATABASE_URL (the server's database)");
  }
  if (booleanFlag("print-env")) {
    for (const [name, value] of Object.entries(attachedServerEnv(fakePort, databaseUrl)))
      console.log(`${name}=${value ?? ""}`);
    return;
  }

  const loadAtStart = os.loadavg()[0] ?? 0;
  if (server && relayRttMs !== undefined) throw new Error("--rtt needs the bench's own server");
  const target = server
    ? await attachTo(server, fakePort, databaseUrl)
    : await ownServer({ relayRttMs, nodeOptions });
  try {
    const results = await run(target);
    const about = machine(loadAtStart);
    printTable(results, about);
    const toolList = await toolListSizes();
    printToolListSizes(toolList);
    const measuredRtt = target.relays?.redis ? await measuredRoundTripMs(target.relays.redis) : undefined;
    if (measuredRtt !== undefined)
      console.log(`relay round trip measured through Redis: p50 ${measuredRtt.toFixed(2)} ms`);
    const settings = {
      ...config,
      database: target.databaseName,
      relayRttMs: relayRttMs ?? 0,
      relayRttMeasuredMs: measuredRtt,
      nodeOptions: nodeOptions ?? "",
      server: server ?? "own",
    };
    const file = writeResults(results, about, settings, stringFlag("label"), { toolList });
    console.log(`wrote ${file}`);
  } finally {
    await target.close();
  }
}

await main();
process.exit(0);
