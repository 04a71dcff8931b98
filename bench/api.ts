/**
 * HTTP API benchmark against `next start` (a production build is made when `.next` has none): the fake
 * provider server stands in for five search providers answering in a fixed 200 ms.
 *
 *   npx tsx bench/api.ts [--duration=10] [--connections=50] [--fanout=200]
 *
 * Scenarios: GET /api/health (baseline), cached POST /api/v1/search, cached MCP tools/call web_search,
 * uncached fan-out over 5 providers (latency above the 200 ms provider time), and the server's peak RSS.
 * With DATABASE_URL (and REDIS_URL) set it runs in the self-hosted configuration on a fresh, migrated
 * database; otherwise zero-configuration (embedded PostgreSQL, in-memory KV).
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import autocannon from "autocannon";
import { startFakeProviders } from "../tests/fakes/provider-server";

const arg = (name: string, fallback: number) =>
  Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1] ?? fallback);
const DURATION = arg("duration", 10);
const CONNECTIONS = arg("connections", 50);
const FANOUT_REQUESTS = arg("fanout", 200);
const PORT = 3300;
const BASE = `http://127.0.0.1:${PORT}`;
const PROVIDERS = ["brave", "tavily", "serper", "exa", "duckduckgo"];
const PROVIDER_LATENCY_MS = 200;

const percentile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

/** A new database next to the given one, migrated; its URL. */
function freshDatabase(adminUrl: string): string {
  const name = `smx_bench_${Date.now()}`;
  execFileSync("psql", [adminUrl, "-qc", `create database ${name}`]);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  execFileSync("npx", ["tsx", "scripts/db-migrate.ts"], {
    env: { ...process.env, DATABASE_URL: url.toString() },
  });
  return url.toString();
}

async function main(): Promise<void> {
  if (!existsSync(".next/BUILD_ID")) execFileSync("npx", ["next", "build"], { stdio: "inherit" });
  const fake = await startFakeProviders();
  for (const id of PROVIDERS) fake.setScenario(id, { latencyMs: PROVIDER_LATENCY_MS });
  const dataDir = mkdtempSync(path.join(tmpdir(), "smx-bench-"));
  const database = process.env.DATABASE_URL ? freshDatabase(process.env.DATABASE_URL) : "";
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(PORT),
    SEARCHMUX_DATA_DIR: dataDir,
    DATABASE_URL: database,
    REDIS_URL: database ? (process.env.REDIS_URL ?? "") : "",
    SEARCHMUX_RATE_LIMIT_RPM: "100000000",
    NEXT_TELEMETRY_DISABLED: "1",
  };
  for (const id of PROVIDERS) {
    env[`${id.toUpperCase()}_BASE_URL`] = fake.baseUrlFor(id);
    if (id !== "duckduckgo") env[`${id.toUpperCase()}_API_KEY`] = `bench-${id}-key`;
  }
  const server = spawn("npx", ["next", "start", "-p", String(PORT)], {
    env,
    stdio: "ignore",
    detached: true,
  });
  let peakRssMb = 0;
  const rssTimer = setInterval(() => {
    try {
      const pids = execFileSync("pgrep", ["-g", String(server.pid)])
        .toString()
        .trim()
        .split("\n");
      const rss = pids
        .map((pid) => /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? "0")
        .reduce((sum, kb) => sum + Number(kb), 0);
      peakRssMb = Math.max(peakRssMb, rss / 1024);
    } catch {
      // a process ended between the listing and the read
    }
  }, 200);

  try {
    for (let i = 0; i < 120; i++) {
      if ((await fetch(`${BASE}/api/health`).catch(() => null))?.ok) break;
      await sleep(500);
    }
    const smx = (...args: string[]) =>
      execFileSync("npx", ["tsx", "scripts/smx.ts", ...args], { env: { ...env, NODE_ENV: "development" } })
        .toString()
        .trim();
    const tenant = smx("tenant", "create", "--name", "bench");
    const token = smx("token", "create", "--tenant", tenant, "--name", "bench", "--scopes", "search,mcp");
    const auth = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    const searchBody = JSON.stringify({ query: "bench cached query", providers: PROVIDERS });
    const mcpBody = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "web_search", arguments: { query: "bench cached query", providers: PROVIDERS } },
    });
    const mcpHeaders = {
      ...auth,
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-06-18",
    };
    // Warm both caches (and Next's route compilation).
    await fetch(`${BASE}/api/v1/search`, { method: "POST", headers: auth, body: searchBody });
    await fetch(`${BASE}/api/mcp`, { method: "POST", headers: mcpHeaders, body: mcpBody });

    const run = (title: string, options: autocannon.Options) =>
      autocannon({ connections: CONNECTIONS, duration: DURATION, ...options, title }).then((r) => ({
        title,
        rps: Math.round(r.requests.average),
        p50: r.latency.p50,
        p99: r.latency.p99,
        errors: r.errors + r.non2xx,
      }));
    const health = await run("GET /api/health (baseline)", { url: `${BASE}/api/health` });
    const rest = await run("cached REST search", {
      url: `${BASE}/api/v1/search`,
      method: "POST",
      headers: auth,
      body: searchBody,
    });
    const mcp = await run("cached MCP web_search", {
      url: `${BASE}/api/mcp`,
      method: "POST",
      headers: mcpHeaders,
      body: mcpBody,
    });

    const latencies: number[] = [];
    let failures = 0;
    let next = 0;
    await Promise.all(
      Array.from({ length: 10 }, async () => {
        while (next < FANOUT_REQUESTS) {
          const body = JSON.stringify({ query: `uncached ${next++}`, providers: PROVIDERS, no_cache: true });
          const started = performance.now();
          const response = await fetch(`${BASE}/api/v1/search`, { method: "POST", headers: auth, body });
          await response.arrayBuffer();
          latencies.push(performance.now() - started);
          if (!response.ok) failures++;
        }
      }),
    );
    latencies.sort((a, b) => a - b);
    const fanout = { p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99), failures };

    const rows = [
      {
        scenario: health.title,
        "req/s": health.rps,
        "p50 ms": health.p50,
        "p99 ms": health.p99,
        errors: health.errors,
        target: "baseline",
      },
      {
        scenario: rest.title,
        "req/s": rest.rps,
        "p50 ms": rest.p50,
        "p99 ms": rest.p99,
        errors: rest.errors,
        target: "≥ 1,500 req/s, p50 ≤ 5 ms",
      },
      {
        scenario: mcp.title,
        "req/s": mcp.rps,
        "p50 ms": mcp.p50,
        "p99 ms": mcp.p99,
        errors: mcp.errors,
        target: "≥ 800 calls/s",
      },
      {
        scenario: `uncached fan-out, 5 providers × ${PROVIDER_LATENCY_MS} ms (10 in flight)`,
        "req/s": "",
        "p50 ms": fanout.p50.toFixed(1),
        "p99 ms": fanout.p99.toFixed(1),
        errors: fanout.failures,
        target: "p50 ≤ 215 ms",
      },
    ];
    console.table(rows);
    console.log(
      `peak server RSS ${peakRssMb.toFixed(0)} MB (target ≤ 400 MB); cached REST / health ratio ${(rest.rps / health.rps).toFixed(2)}`,
    );
    mkdirSync("bench/results", { recursive: true });
    const file = `bench/results/api-${database ? "postgres" : "embedded"}-${new Date().toISOString().slice(0, 10)}.json`;
    writeFileSync(
      file,
      `${JSON.stringify({ node: process.version, connections: CONNECTIONS, duration_s: DURATION, rows, peak_rss_mb: peakRssMb }, null, 2)}\n`,
    );
    console.log(`wrote ${file}`);
  } finally {
    clearInterval(rssTimer);
    if (server.pid) process.kill(-server.pid, "SIGTERM");
    await fake.close();
    await sleep(500);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
