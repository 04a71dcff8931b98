/**
 * RELIABILITY L1 and the multi-instance rows, against `next start` (production build) with the fake
 * providers answering in 50 ms, PostgreSQL (the embedded one without DATABASE_URL) and Redis:
 * - one instance, 200 connections mixing search, fetch and MCP calls of ten tenants;
 * - two instances sharing the database and Redis, the same load split across them, with a per-tenant
 *   budget and a per-token rate limit that must hold exactly;
 * - one of two instances stopped with SIGTERM mid-load, then started again.
 * Each phase has its own stack (database, fakes, instances), so its accounting is exact.
 * The load lasts SMX_LOAD_SECONDS per phase: 30 s by default (what CI runs; RELIABILITY.md asks 60 s
 * for L1, run `SMX_LOAD_SECONDS=60 npx vitest run tests/reliability/load.test.ts` for that).
 */
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Accounting, accountFor, combinedLedger } from "./support/accounting";
import { callMix } from "./support/call-mix";
import { count5xx, type LoadReport, runLoad, warmUp } from "./support/load";
import { loopLagProbe } from "./support/loop-lag";
import { atStartOfFreshWindow, burst } from "./support/rate-limit-burst";
import { type Stack, type StackOptions, startStack } from "./support/stack";
import { type SeededTenant, type SeedOptions, seedTenant, UNREACHED_SPEND_CAP } from "./support/tenant";

const LOAD_SECONDS = Number(process.env.SMX_LOAD_SECONDS ?? 30);
const CONNECTIONS = 200;
const TENANTS = 10;
/** A production build can take minutes on a busy machine; starting instances takes seconds. */
const SETUP_MS = 10 * 60_000;
/**
 * Calls slower than this count as hung (autocannon gives up on them). Generous on purpose: on a busy 2-core
 * machine a healthy instance under 200 connections answered its slowest calls in 15–20 s, so a tighter bound
 * fails the build for the machine's speed, not for a hung call. Latency is reported, and targeted in bench/.
 */
const CALL_TIMEOUT_SECONDS = 90;
const LOAD_TEST_MS = (LOAD_SECONDS + CALL_TIMEOUT_SECONDS + 120) * 1000;

function summary(name: string, report: LoadReport): string {
  const { p50, p99, max } = report.latencyMs;
  const kinds = Object.entries(report.latencyByKind)
    .map(([kind, l]) => `${kind} p50 ${l.p50.toFixed(0)} / p99 ${l.p99.toFixed(0)} ms`)
    .join(", ");
  return (
    `${name}: ${report.answered} calls in ${report.durationSeconds} s (${report.requestsPerSecond.toFixed(0)}/s), ` +
    `p50 ${p50.toFixed(0)} ms, p99 ${p99.toFixed(0)} ms, max ${max.toFixed(0)} ms (${kinds}), statuses ${JSON.stringify(report.statuses)}, ` +
    `transport errors ${report.errors.length}, timeouts ${report.timeouts}`
  );
}

/** Transport errors and non-2xx answers, over the calls sent. */
function errorRate(report: LoadReport): number {
  const non2xx = report.answered - (report.statuses[200] ?? 0);
  return (report.errors.length + non2xx) / Math.max(1, report.sent);
}

/**
 * Every answered call was traced, and every provider call charged exactly once, nothing left open.
 * `otherCalls`: traced calls made outside the load (the warm-up).
 */
function expectExactAccounting(report: LoadReport, accounting: Accounting, otherCalls: number): void {
  expect(report.untraced2xx).toBe(0);
  expect(accounting.missingTraces).toEqual([]);
  expect(accounting.ledger.traces).toBeGreaterThanOrEqual(report.traceIds.length + otherCalls);
  expect(accounting.ledger.traces).toBeLessThanOrEqual(report.sent + otherCalls);
  expect(accounting.ledger.reservations.reserved).toBe(0);
  for (const [provider, account] of Object.entries(accounting.providers)) {
    // Every request a provider received is charged once. A timeout is charged too, as the provider may have
    // received it (docs/decisions.md, "Budgets and billing"); on a saturated machine the fake may not have
    // read a timed-out request before it was abandoned, so only timeouts may be charged beyond what arrived.
    const received = account.counted ? account.received : 0;
    const timeouts = account.counted ? account.timedOutSpans : 0;
    expect({
      provider,
      undercharged: Math.max(0, received - account.charged),
      overcharged: Math.max(0, account.charged - received - timeouts),
    }).toEqual({ provider, undercharged: 0, overcharged: 0 });
    // Every call a provider answered has its span; a call it received may also have timed out on our side.
    expect(account.completedSpans).toBeLessThanOrEqual(account.received);
    expect(account.attemptedSpans).toBeGreaterThanOrEqual(account.received);
  }
  const charged = Object.values(accounting.providers).reduce((sum, a) => sum + a.charged, 0);
  expect(accounting.ledger.requests["*"] ?? 0).toBe(charged);
}

/** A stack with ten load tenants and warm instances; closed after the describe block. */
function useLoadStack(options: StackOptions, tenantOptions: Omit<SeedOptions, "name"> = {}) {
  const state = { stack: undefined as Stack | undefined, tenants: [] as SeededTenant[], warmUpCalls: 0 };
  beforeAll(async () => {
    const stack = await startStack({ providerLatencyMs: 50, ...options });
    state.stack = stack;
    for (let i = 0; i < TENANTS; i++)
      state.tenants.push(
        await seedTenant(stack.platform, {
          name: `load-${i}`,
          ...tenantOptions,
          budgets: [UNREACHED_SPEND_CAP, ...(tenantOptions.budgets ?? [])],
        }),
      );
    state.warmUpCalls = await warmUp(
      stack.servers.map((s) => s.url),
      callMix(
        state.tenants.map((t) => t.token),
        stack.pageUrl,
      ),
    );
  }, SETUP_MS);
  afterAll(async () => {
    await state.stack?.close();
  });
  return {
    get stack(): Stack {
      if (!state.stack) throw new Error("stack not started");
      return state.stack;
    },
    get tenants() {
      return state.tenants;
    },
    get warmUpCalls() {
      return state.warmUpCalls;
    },
    mix() {
      return callMix(
        state.tenants.map((t) => t.token),
        (i) => this.stack.pageUrl(i),
      );
    },
  };
}

describe("L1: 200 connections on one instance", () => {
  const lag = loopLagProbe();
  // Registered before the stack's afterAll, so it runs after the servers have stopped.
  afterAll(() => lag.remove());
  const load = useLoadStack({ nodeOptions: lag.nodeOptions, instanceEnv: () => lag.env });

  it(
    "serves a search/fetch/MCP mix with zero 5xx and < 0.1 % errors, every trace kept and exact budgets, and reports p99 and event-loop lag",
    async () => {
      const [server] = load.stack.servers;
      if (!server) throw new Error("no instance");
      const report = await runLoad({
        urls: [server.url],
        connections: CONNECTIONS,
        durationSeconds: LOAD_SECONDS,
        mix: load.mix(),
        timeoutSeconds: CALL_TIMEOUT_SECONDS,
      });
      const lagMs = lag.worst(server.pid);
      console.log(
        `${summary(`L1 on ${load.stack.databaseName}`, report)}; event-loop lag: worst second p99 ${lagMs.p99.toFixed(0)} ms, max ${lagMs.max.toFixed(0)} ms`,
      );

      expect(report.answered).toBeGreaterThan(CONNECTIONS);
      expect(count5xx(report.statuses)).toBe(0);
      expect.soft(errorRate(report)).toBeLessThan(0.001);
      expect(lagMs.windows).toBeGreaterThan(0);
      // Latency under 200 connections depends on the hardware: a measured figure against RELIABILITY L1's
      // targets (p99 ≤ 1.5 s, lag < 200 ms), reported with the benchmarks rather than failing the build.
      console.log(
        `L1 capacity: p99 ${report.latencyMs.p99.toFixed(0)} ms (target ≤ 1500), event-loop lag p99 ${lagMs.p99.toFixed(0)} ms (target < 200)`,
      );
      expectExactAccounting(
        report,
        await accountFor(
          load.stack,
          load.tenants.map((t) => t.tenantId),
          report.traceIds,
        ),
        load.warmUpCalls,
      );
    },
    LOAD_TEST_MS,
  );
});

describe("two instances sharing PostgreSQL and Redis", () => {
  const BRAVE_CAP = 15;
  const RATE_LIMIT = 40;
  const load = useLoadStack(
    { instances: 2 },
    { budgets: [{ provider: "brave", metric: "requests", period: "lifetime", limit: BRAVE_CAP }] },
  );

  it(
    "splits the load with zero 5xx while each tenant's budget and a token's rate limit hold exactly",
    async () => {
      const urls = load.stack.servers.map((s) => s.url);
      const limited = await seedTenant(load.stack.platform, {
        name: "rate-limited",
        rateLimitRpm: RATE_LIMIT,
      });
      await atStartOfFreshWindow();
      const loadRun = runLoad({
        urls,
        connections: CONNECTIONS,
        durationSeconds: LOAD_SECONDS,
        mix: load.mix(),
        timeoutSeconds: CALL_TIMEOUT_SECONDS,
      });
      await sleep(3_000);
      const limitedBurst = await burst(urls, "/api/v1/usage", limited.token, RATE_LIMIT * 3);
      const report = await loadRun;
      console.log(
        `${summary(`two instances on ${load.stack.databaseName}`, report)}; rate-limited burst ${JSON.stringify(limitedBurst.statuses)}`,
      );

      expect(count5xx(report.statuses)).toBe(0);
      expect.soft(errorRate(report)).toBeLessThan(0.001);
      expect(limitedBurst.statuses).toEqual({ 200: RATE_LIMIT, 429: RATE_LIMIT * 2 });
      expect(Math.min(...limitedBurst.retryAfter)).toBeGreaterThanOrEqual(1);

      const accounting = await accountFor(
        load.stack,
        load.tenants.map((t) => t.tenantId),
        report.traceIds,
      );
      expectExactAccounting(report, accounting, load.warmUpCalls);
      // Every tenant ran into its Brave budget, and no instance let a single call past it.
      expect(accounting.providers.brave?.received).toBe(TENANTS * BRAVE_CAP);
      for (const tenant of load.tenants) {
        const own = await combinedLedger(load.stack, [tenant.tenantId]);
        expect(own.requests.brave).toBe(BRAVE_CAP);
      }
    },
    LOAD_TEST_MS,
  );
});

describe("one of two instances restarted mid-load", () => {
  const load = useLoadStack({ instances: 2 });

  it(
    "finishes or cleanly refuses in-flight calls on SIGTERM, exits promptly, flushes its traces, and charges nothing twice",
    async () => {
      const [stopping, staying] = load.stack.servers;
      if (!stopping || !staying) throw new Error("two instances expected");
      const loadRun = runLoad({
        urls: [stopping.url, staying.url],
        connections: CONNECTIONS,
        durationSeconds: LOAD_SECONDS,
        mix: load.mix(),
        timeoutSeconds: CALL_TIMEOUT_SECONDS,
      });
      const loadStarted = Date.now();
      let loadOver = false;
      void loadRun.finally(() => {
        loadOver = true;
      });
      await sleep((LOAD_SECONDS * 1000) / 3);
      const signalledAt = Date.now() - loadStarted;
      // Killed only if it is still running long after the load has ended.
      const exit = await stopping.stop("SIGTERM", LOAD_SECONDS * 1000 + 30_000);
      const exitedDuringLoad = !loadOver;
      const restarted = await load.stack.startInstance(stopping.port);
      const backAt = Date.now() - loadStarted;
      const report = await loadRun;
      const errorsByCode = report.errors.reduce<Record<string, number>>((byCode, e) => {
        byCode[e.code] = (byCode[e.code] ?? 0) + 1;
        return byCode;
      }, {});
      console.log(
        `${summary(`restart on ${load.stack.databaseName}`, report)}; SIGTERM at ${signalledAt} ms, exit ${exit.ms} ms later ` +
          `(code ${exit.code}, signal ${exit.signal}), back at ${backAt} ms; transport errors ${JSON.stringify(errorsByCode)}`,
      );

      // Graceful and prompt: the process ended by itself (not killed) while the load, signalled a third of
      // the way through, still went on. How long the exit takes is printed above, not asserted: a loaded
      // machine stretches it.
      expect.soft(exit.signal).toBeNull();
      expect.soft(exitedDuringLoad).toBe(true);
      expect(restarted.pid).not.toBe(stopping.pid);
      expect((await fetch(`${restarted.url}/api/health`)).status).toBe(200);
      // No 5xx and no hung call; the only transport errors are refused or closed connections while it was down.
      expect(count5xx(report.statuses)).toBe(0);
      expect(report.timeouts).toBe(0);
      for (const error of report.errors) {
        expect(["ECONNREFUSED", "ECONNRESET", "EPIPE"]).toContain(error.code);
        expect(error.atMs).toBeGreaterThanOrEqual(signalledAt - 100);
        // Generous: a reconnect started while the instance was down reports its refusal when the loaded
        // client gets to it; an instance that kept refusing after its restart would fail for the ~15 s of
        // load that remain.
        expect(error.atMs).toBeLessThanOrEqual(backAt + 5_000);
      }
      expectExactAccounting(
        report,
        await accountFor(
          load.stack,
          load.tenants.map((t) => t.tenantId),
          report.traceIds,
        ),
        load.warmUpCalls,
      );
    },
    LOAD_TEST_MS + LOAD_SECONDS * 1000,
  );
});
