/**
 * The fault matrix (docs/fault-matrix.md, RELIABILITY D1) as a table the suite runs: PostgreSQL, Redis,
 * one search provider, every search provider and the operator model, each down, slow and answering
 * garbage, against the real route handlers in this process. PostgreSQL (the embedded server, or the
 * machine's PostgreSQL when DATABASE_URL is set) and a Redis of the suite's own sit behind fault relays;
 * providers and the operator model are the fake provider server's wires with its failure knobs.
 *
 * Each row asserts what the user sees (status, code, message), what /api/ready and /api/health say while
 * the fault lasts, what was charged (the workspace's usage counters move by what the providers were asked
 * and no further; no reservation is left open), that the call's trace is kept (written at once, or
 * queued and written once the database is back), and that the same call succeeds once the fault is
 * removed, the app never restarted. `serverless` runs the same table with VERCEL=1: one describe per mode,
 * each in its own test file (config is read once per process).
 */
import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { TenantContext } from "@/lib/pipeline/context";
import { ANSWER_PREFIX, ANSWER_WIRES } from "@/tests/fakes/answer-wires";
import { type FakeProviders, type FakeScenario, startFakeProviders } from "@/tests/fakes/provider-server";
import { type FaultRelay, type RelayState, startFaultRelay } from "@/tests/reliability/support/fault-relay";
import { type LedgerSnapshot, ledger } from "@/tests/reliability/support/ledger";
import { serveRequest } from "@/tests/support/app-routes";
import { databaseTargets, type TestDatabase } from "@/tests/support/database";
import { generous } from "@/tests/support/generous";
import { fakeProviderEnv } from "@/tests/support/provider-env";
import { type OwnRedis, startOwnRedis } from "@/tests/support/redis-server";
import { inProcessApp, newToken, operatorWorkspace, routeRequest } from "@/tests/support/route-handlers";

export type Mode = "server" | "serverless";
type Dependency = "PostgreSQL" | "Redis" | "one provider" | "every provider" | "operator model";
type Fault = "down" | "slow" | "garbage";

/** The call's deadline: a slow dependency holds longer than this (forever). */
const TIMEOUT_MS = 1_000;
/** The two keyed search providers a search asks; "one provider" faults the first. */
const SEARCH_PROVIDERS = ["brave", "tavily"] as const;

interface Expected {
  status: number;
  code?: string;
  message?: RegExp;
  /** The error's details. */
  details?: unknown;
  /** The Retry-After header's value. */
  retryAfter?: string;
  /** A result served by the others, with this provider reported failed for this reason. */
  failed?: { provider: string; reason: string };
  /** What /api/ready answers while the fault lasts. */
  ready: { status: 200 | 503; body: Record<string, unknown> };
  /** What /api/health answers while the fault lasts. */
  health: { status: 200 | 503; body: Record<string, unknown> };
}

interface Row {
  dependency: Dependency;
  fault: Fault;
  expected: Expected;
}

const READY = { status: 200, body: { status: "ok", db: "ok", kv: "ok", secret_key: "ok" } } as const;
const HEALTHY = { status: 200, body: { status: "ok", db: "ok", kv: "ok" } } as const;
const DB_NOT_READY = {
  status: 503,
  body: { status: "error", db: "error", kv: "ok", reason: "the database does not answer" },
} as const;
const DB_DEAD = {
  status: 503,
  body: { status: "error", db: "error", reason: "the database does not answer" },
} as const;
const KV_NOT_READY = {
  status: 503,
  body: { status: "error", db: "ok", kv: "error", reason: "the KV store does not answer" },
} as const;
// Liveness stays 200 without the KV store: a restart would not bring it back.
const KV_DEGRADED = { status: 200, body: { status: "degraded", db: "ok", kv: "error" } } as const;

/** The summary of a search where both providers failed for `reason`, in whichever order they ended. */
const bothFailed = (reason: string) =>
  new RegExp(`^every provider failed \\((brave|tavily): ${reason}; (brave|tavily): ${reason}\\)$`);

/**
 * A dependency away: 503 naming it and nothing of its error (the statement, its parameters, its address
 * stay in the log), with when to try again.
 */
const unavailable = (dependency: "database" | "kv", name: string) => ({
  status: 503,
  code: "unavailable",
  message: new RegExp(`^the ${name} does not answer; nothing was charged, try again shortly$`),
  details: { dependency },
  retryAfter: "5",
});
const dbRow = (fault: Fault): Row => ({
  dependency: "PostgreSQL",
  fault,
  expected: { ...unavailable("database", "database"), ready: DB_NOT_READY, health: DB_DEAD },
});
const kvRow = (fault: Fault): Row => ({
  dependency: "Redis",
  fault,
  expected: { ...unavailable("kv", "KV store"), ready: KV_NOT_READY, health: KV_DEGRADED },
});
const providerRow = (dependency: Dependency, fault: Fault, expected: Partial<Expected>): Row => ({
  dependency,
  fault,
  expected: { status: 200, ready: READY, health: HEALTHY, ...expected },
});

const PROVIDER_FAULT: Record<Fault, FakeScenario> = {
  down: { status: 503 },
  slow: { fault: "hang" },
  garbage: { fault: "garbage" },
};
const PROVIDER_REASON: Record<Fault, string> = {
  down: "http_error",
  slow: "timeout",
  garbage: "invalid_response",
};

const ROWS: readonly Row[] = [
  dbRow("down"),
  dbRow("slow"),
  dbRow("garbage"),
  kvRow("down"),
  kvRow("slow"),
  kvRow("garbage"),
  ...(["down", "slow", "garbage"] as const).flatMap((fault) => [
    providerRow("one provider", fault, {
      failed: { provider: SEARCH_PROVIDERS[0], reason: PROVIDER_REASON[fault] },
    }),
    providerRow("every provider", fault, {
      status: 502,
      code: "all_providers_failed",
      message: bothFailed(PROVIDER_REASON[fault]),
    }),
    providerRow("operator model", fault, {
      status: 502,
      code: "all_providers_failed",
      message: new RegExp(`^every provider failed \\(llm: ${PROVIDER_REASON[fault]}\\)$`),
    }),
  ]),
];

/** A search writes one trace; an answer with the operator model two (its own and its search's). */
const TRACES_PER_CALL = { search: 1, answer: 2 } as const;
const NOT_ASKED = { brave: 0, tavily: 0, llm: 0 };

const counter = (snapshot: LedgerSnapshot, provider: string) => snapshot.requests[provider] ?? 0;

interface Call {
  status: number;
  retryAfter: string | null;
  body: Record<string, unknown> & {
    error?: { code: string; message: string; details?: unknown };
    trace_id?: string;
  };
}

export function describeFaultMatrix(mode: Mode): void {
  describe(`the fault matrix, ${mode}`, () => {
    const app = inProcessApp(`fault-matrix-${mode}`);
    let fake: FakeProviders;
    let database: TestDatabase;
    let redis: OwnRedis;
    let dbRelay: FaultRelay;
    let kvRelay: FaultRelay;
    let token: string;
    let tenantId: string;
    let ctx: TenantContext;

    beforeAll(async () => {
      const target = databaseTargets().at(-1);
      if (!target) throw new Error("no database target");
      fake = await startFakeProviders(ANSWER_WIRES);
      database = await target.create();
      redis = await startOwnRedis();
      const db = new URL(database.url);
      dbRelay = await startFaultRelay({ host: db.hostname, port: Number(db.port) });
      kvRelay = await startFaultRelay({ host: "127.0.0.1", port: redis.port });
      await app.start({
        ...fakeProviderEnv(fake.url),
        BRAVE_API_KEY: "fm-brave",
        TAVILY_API_KEY: "fm-tavily",
        SEARCHMUX_LLM_BASE_URL: fake.baseUrlFor(ANSWER_PREFIX.llm),
        SEARCHMUX_LLM_MODEL: "fm-model",
        SEARCHMUX_LLM_API_KEY: "fm-llm",
        SEARCHMUX_RATE_LIMIT_RPM: "100000",
        DATABASE_URL: dbRelay.url(database.url),
        REDIS_URL: kvRelay.url(redis.url),
        VERCEL: mode === "serverless" ? "1" : "",
      });
      ctx = await operatorWorkspace(`fault-matrix-${mode}`);
      tenantId = ctx.tenantId;
      token = await newToken(ctx, { name: "fm", scopes: ["search", "answer"] });
    });

    afterAll(async () => {
      // Every step runs even when one fails: no Redis process, database or port is left behind.
      const steps = [
        async () => (await import("@/lib/kv")).getKv().close(),
        () => app.stop(),
        () => dbRelay?.close(),
        () => kvRelay?.close(),
        () => database?.cleanup(),
        () => redis?.remove(),
        () => fake?.close(),
      ];
      const failures: unknown[] = [];
      for (const step of steps)
        await Promise.resolve()
          .then(step)
          .catch((error) => failures.push(error));
      if (failures.length > 0) throw failures[0];
    });

    beforeEach(() => {
      fake.resetScenarios();
      fake.clearRequests();
    });

    async function post(tool: "search" | "answer", bearer = token): Promise<Call> {
      const body =
        tool === "search"
          ? {
              query: "fault matrix",
              providers: [...SEARCH_PROVIDERS],
              timeout_ms: TIMEOUT_MS,
              no_cache: true,
            }
          : { query: "fault matrix", providers: ["llm"], timeout_ms: TIMEOUT_MS, no_cache: true };
      const response = await serveRequest(
        routeRequest(`/api/v1/${tool}`, { method: "POST", token: bearer, body }),
      );
      return {
        status: response.status,
        retryAfter: response.headers.get("retry-after"),
        body: (await response.json()) as Call["body"],
      };
    }

    async function probe(path: "/api/ready" | "/api/health") {
      const route =
        path === "/api/ready"
          ? await import("@/app/api/ready/route")
          : await import("@/app/api/health/route");
      const response = await route.GET();
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    }

    /** Asks until the instance is ready again (Redis reconnects on its own schedule, at most 2 s apart). */
    async function readyAgain() {
      const deadline = Date.now() + generous(6_000);
      let ready = await probe("/api/ready");
      while (ready.status !== 200 && Date.now() < deadline) {
        await sleep(200);
        ready = await probe("/api/ready");
      }
      return ready;
    }

    /** Traces and usage the calls left pending, written (read straight from the database, no relay). */
    async function settledLedger(): Promise<LedgerSnapshot> {
      const { flushPendingWrites } = await import("@/lib/pipeline/platform");
      await flushPendingWrites();
      return ledger(database.db, tenantId);
    }

    function inject(row: Row): () => void {
      const relayFault = (relay: FaultRelay) => {
        relay.set(row.fault satisfies RelayState);
        return () => relay.set("pass");
      };
      switch (row.dependency) {
        case "PostgreSQL":
          return relayFault(dbRelay);
        case "Redis":
          return relayFault(kvRelay);
        case "one provider":
          fake.setScenario(SEARCH_PROVIDERS[0], PROVIDER_FAULT[row.fault]);
          return () => fake.resetScenarios();
        case "every provider":
          for (const id of SEARCH_PROVIDERS) fake.setScenario(id, PROVIDER_FAULT[row.fault]);
          return () => fake.resetScenarios();
        case "operator model":
          fake.setScenario(ANSWER_PREFIX.llm, PROVIDER_FAULT[row.fault]);
          return () => fake.resetScenarios();
      }
    }

    const asked = () => ({
      brave: fake.requests("brave").length,
      tavily: fake.requests("tavily").length,
      llm: fake.requests(ANSWER_PREFIX.llm).length,
    });

    it.each(ROWS)("$dependency $fault", async (row) => {
      const tool = row.dependency === "operator model" ? "answer" : "search";
      // A call verifies the token, and the KV store keeps the verdict for a minute: the row's call reaches
      // the tool even while the database is away.
      expect((await post("search")).status).toBe(200);
      fake.clearRequests();
      const before = await settledLedger();
      // A token this instance has not verified within the last minute (not in the KV store's cache).
      const unverified =
        row.dependency === "PostgreSQL"
          ? await newToken(ctx, { name: "unverified", scopes: ["search"] })
          : "";

      const remove = inject(row);
      let failed: Call;
      let unauthenticated: Call | undefined;
      try {
        failed = await post(tool);
        if (unverified) unauthenticated = await post(tool, unverified);
        expect(await probe("/api/ready")).toMatchObject(row.expected.ready);
        expect(await probe("/api/health")).toMatchObject(row.expected.health);
      } finally {
        remove();
      }
      expect(failed.status).toBe(row.expected.status);
      if (row.expected.code) expect(failed.body.error?.code).toBe(row.expected.code);
      if (row.expected.message) expect(failed.body.error?.message).toMatch(row.expected.message);
      if (row.expected.failed) {
        expect(failed.body.providers_failed).toEqual([expect.objectContaining(row.expected.failed)]);
        expect(failed.body.providers_succeeded).toEqual([
          expect.objectContaining({ provider: SEARCH_PROVIDERS[1] }),
        ]);
      }
      if (row.expected.details) expect(failed.body.error?.details).toEqual(row.expected.details);
      if (row.expected.retryAfter) expect(failed.retryAfter).toBe(row.expected.retryAfter);
      if (unauthenticated) {
        // Verifying it needs the database: refused as the database's failure, naming nothing of it.
        expect(unauthenticated).toMatchObject({
          status: 503,
          retryAfter: "5",
          body: { error: { code: "unavailable", details: { dependency: "database" } } },
        });
      }

      // Charged: each provider's counter moved by the requests it received, no more; none left reserved.
      const sent = asked();
      const during = await settledLedger();
      for (const [provider, requests] of Object.entries(sent)) {
        expect(counter(during, provider) - counter(before, provider), provider).toBe(requests);
      }
      expect(during.reservations.reserved).toBe(0);
      if (row.dependency === "PostgreSQL" || row.dependency === "Redis") expect(sent).toEqual(NOT_ASKED);

      // Recovery, no restart: ready again by itself, and the same call answers.
      expect(await readyAgain()).toMatchObject(READY);
      expect(await probe("/api/health")).toMatchObject(HEALTHY);
      const recovered = await post(tool);
      expect(recovered.status).toBe(200);
      if (unverified) expect((await post(tool, unverified)).status).toBe(200);
      expect(recovered.body.trace_id).toEqual(expect.any(String));

      // Kept: the failed call's trace (queued while the database was away, then written) and the
      // recovered one's; a call refused before it started (the KV store gone) has none.
      const after = await settledLedger();
      const calls = (row.dependency === "Redis" ? 1 : 2) + (unverified ? 1 : 0);
      expect(after.traces - before.traces).toBe(calls * TRACES_PER_CALL[tool]);
      expect(after.reservations.reserved).toBe(0);
    });
  });
}
