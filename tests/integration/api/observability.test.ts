/**
 * Operations through the real route handlers: a structured log line per request with its request id,
 * the Prometheus endpoint behind the operator token reflecting calls, provider status and usage history
 * over REST, no key or token in any log line or stored trace (RELIABILITY K3), and request metrics
 * labelled by route template, so random paths, ids and tokens add no series.
 */
import { randomBytes } from "node:crypto";
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeProviders, startFakeProviders } from "@/tests/fakes/provider-server";
import { boundRouteHandler } from "@/tests/support/app-routes";
import { fakeProviderEnv } from "@/tests/support/provider-env";
import {
  callRoute,
  inProcessApp,
  newToken,
  operatorWorkspace,
  type RouteHandler,
  type RouteRequestInit,
  routeRequest,
} from "@/tests/support/route-handlers";

const app = inProcessApp("observability");
const OPERATOR_TOKEN = "operator-metrics-token-0123456789";
const QUERY_STRING_KEY = "serpapi-operator-key-in-query-9f8e7d";
const TENANT_KEY = "tvly-tenant-stored-key-5a4b3c2d";
let fake: FakeProviders;
let token: string;
const logLines: string[] = [];

type Handler = RouteHandler;
const handlers: Record<string, Handler> = {};

const request = (url: string, { bearer, ...init }: RouteRequestInit & { bearer?: string } = {}) =>
  routeRequest(url, { ...init, token: bearer });
const call = (name: string, req: Request, params: Record<string, string> = {}) =>
  callRoute(handlers[name], req, params);

beforeAll(async () => {
  fake = await startFakeProviders();
  await app.start({
    SEARCHMUX_OPERATOR_TOKEN: OPERATOR_TOKEN,
    ...fakeProviderEnv(fake.url),
    SERPAPI_API_KEY: QUERY_STRING_KEY,
  });
  const { createLogger, replaceLogger } = await import("@/lib/observability/logger");
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logLines.push(...String(chunk).trim().split("\n"));
      done();
    },
  });
  replaceLogger(createLogger(sink, "info"));

  handlers.search = await boundRouteHandler("/api/v1/search", "POST");
  handlers.keys = (await import("@/app/api/v1/keys/route")).PUT as Handler;
  handlers.providers = (await import("@/app/api/v1/providers/route")).GET as Handler;
  handlers.history = (await import("@/app/api/v1/usage/history/route")).GET as Handler;
  handlers.trace = (await import("@/app/api/v1/traces/[id]/route")).GET as Handler;
  handlers.metrics = (await import("@/app/api/metrics/route")).GET as Handler;
  handlers.mcpUrl = (await import("@/app/api/mcp/t/[token]/route")).POST as Handler;

  const { SCOPES } = await import("@/lib/pipeline/context");
  const ctx = await operatorWorkspace("ops");
  token = await newToken(ctx, { name: "ops-admin", scopes: [...SCOPES] });
});

afterAll(async () => {
  await app.stop();
  await fake?.close();
});

describe("operations", () => {
  let traceId: string;

  it("logs one JSON line per request with the request id it returns", async () => {
    const response = await call(
      "search",
      request("/api/v1/search", {
        method: "POST",
        bearer: token,
        body: JSON.stringify({ query: "observability", providers: ["duckduckgo", "serpapi"] }),
      }),
    );
    expect(response.status).toBe(200);
    traceId = ((await response.json()) as { trace_id: string }).trace_id;
    const requestId = response.headers.get("x-request-id");
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    const line = logLines
      .map((l) => JSON.parse(l))
      .find((l) => l.request_id === requestId && l.msg === "request");
    expect(line).toMatchObject({
      method: "POST",
      route: "/api/v1/search",
      status: 200,
      service: "searchmux",
    });
    expect(line.tenant_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(typeof line.duration_ms).toBe("number");
  });

  it("returns the call's full trace with spans", async () => {
    const { pendingWritesSettled } = await import("@/lib/pipeline/platform");
    await pendingWritesSettled();
    const response = await call("trace", request(`/api/v1/traces/${traceId}`, { bearer: token }), {
      id: traceId,
    });
    const trace = (await response.json()) as { spans: Array<{ provider: string; outcome: string }> };
    expect(trace.spans.map((s) => s.provider).sort()).toEqual(["duckduckgo", "serpapi"]);
  });

  it("serves Prometheus metrics reflecting the calls, only with the operator token", async () => {
    expect((await call("metrics", request("/api/metrics"))).status).toBe(401);
    expect((await call("metrics", request("/api/metrics", { bearer: `${OPERATOR_TOKEN}x` }))).status).toBe(
      401,
    );
    const response = await call("metrics", request("/api/metrics", { bearer: OPERATOR_TOKEN }));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/plain");
    const text = await response.text();
    expect(text).toMatch(
      /searchmux_tool_calls_total\{tool="web_search",surface="rest",status="ok",cache_hit="false"\} [1-9]/,
    );
    expect(text).toMatch(
      /searchmux_provider_calls_total\{provider="duckduckgo",kind="search",outcome="ok"\} [1-9]/,
    );
    expect(text).toMatch(
      /searchmux_provider_call_duration_seconds_bucket\{le="[^"]+",provider="serpapi",kind="search"\}/,
    );
    expect(text).toMatch(/searchmux_cache_lookups_total\{tool="web_search",result="miss"\} [1-9]/);
    expect(text).toMatch(/searchmux_http_requests_total\{route="\/api\/v1\/search",status="200"\} [1-9]/);
    expect(text).toContain("searchmux_process_nodejs_eventloop_lag_seconds");
  });

  it("reports provider status and daily usage over REST", async () => {
    const providers = (await (
      await call("providers", request("/api/v1/providers", { bearer: token }))
    ).json()) as {
      providers: Array<{ provider: string; breaker: string; health: { calls: number } | null }>;
    };
    expect(providers.providers.find((p) => p.provider === "duckduckgo")).toMatchObject({
      breaker: "closed",
      health: { calls: 1 },
    });
    const history = (await (
      await call("history", request("/api/v1/usage/history?days=7", { bearer: token }))
    ).json()) as { days: Array<{ date: string; requests: number; calls: number }> };
    expect(history.days).toHaveLength(7);
    expect(history.days.at(-1)).toMatchObject({
      date: new Date().toISOString().slice(0, 10),
      requests: 2,
      calls: 1,
    });
    const refused = await call("history", request("/api/v1/usage/history?days=400", { bearer: token }));
    expect(refused.status).toBe(400);
  });

  it("never writes a key or token to a log line or a stored trace", async () => {
    fake.setScenario("tavily", { status: 500 });
    fake.setScenario("serpapi", { status: 401 });
    const stored = await call(
      "keys",
      request("/api/v1/keys", {
        method: "PUT",
        bearer: token,
        body: JSON.stringify({ provider: "tavily", key: TENANT_KEY }),
      }),
    );
    expect(stored.status).toBe(200);
    const failing = await call(
      "search",
      request("/api/v1/search", {
        method: "POST",
        bearer: token,
        body: JSON.stringify({ query: "secrets", providers: ["tavily", "serpapi"], no_cache: true }),
      }),
    );
    expect(failing.status).toBe(502);
    const { pendingWritesSettled, systemContext } = await import("@/lib/pipeline/platform");
    await pendingWritesSettled();
    const { sql } = await import("drizzle-orm");
    const { queryRows } = await import("@/lib/db");
    const ctx = await systemContext({ kind: "operator" });
    const dump = JSON.stringify(
      await ctx.db.withSystem(async (tx) => [
        await queryRows(tx, sql`select * from traces`),
        await queryRows(tx, sql`select * from trace_spans`),
        await queryRows(tx, sql`select * from audit_log`),
      ]),
    );
    expect(fake.requests("serpapi").at(-1)?.query.api_key).toBe(QUERY_STRING_KEY);
    expect(dump).toContain("serpapi");
    const logs = logLines.join("\n");
    expect(logs).toContain('"status":502');
    for (const secret of [QUERY_STRING_KEY, TENANT_KEY, token, OPERATOR_TOKEN]) {
      expect(dump).not.toContain(secret);
      expect(logs).not.toContain(secret);
    }
  });

  // Last: it spends the failed-authentication allowance and the token's rate limit.
  it("adds no metric series for random paths, ids and tokens, refused ones included", async () => {
    const httpSeries = async () => {
      const response = await call("metrics", request("/api/metrics", { bearer: OPERATOR_TOKEN }));
      const lines = (await response.text()).split("\n");
      return new Set(
        lines.filter((l) => l.startsWith("searchmux_http_requests_total{")).map((l) => l.split(" ")[0]),
      );
    };
    const randomRequest = async (i: number) => {
      const id = randomBytes(9).toString("base64url");
      if (i % 3 === 2) {
        const mcp = request(`/api/mcp/t/${id}`, { method: "POST", body: "{}" });
        return { route: "/api/mcp/t/[token]", response: await call("mcpUrl", mcp, { token: id }) };
      }
      const trace = request(`/api/v1/traces/${id}`, { bearer: i % 3 === 1 ? token : undefined });
      return { route: "/api/v1/traces/[id]", response: await call("trace", trace, { id }) };
    };
    const before = await httpSeries();
    const expected = new Set(before);
    const statuses = new Set<number>();
    for (let i = 0; i < 1_000; i++) {
      const { route, response } = await randomRequest(i);
      statuses.add(response.status);
      expected.add(`searchmux_http_requests_total{route="${route}",status="${response.status}"}`);
    }
    expect(statuses).toContain(401);
    const after = await httpSeries();
    // One series per route template and status, whatever the path said.
    expect([...after].sort()).toEqual([...expected].sort());
    expect(after.size - before.size).toBeLessThanOrEqual(2 * statuses.size);
  });
});
