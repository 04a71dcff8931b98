/**
 * RELIABILITY R2, M1, M2 against `next start`: hostile input to every REST route and MCP tool gets a 4xx
 * whose message says what is wrong; none of it reaches a provider, writes a row or charges anything;
 * 10 MB bodies are refused without the server's memory growing; MCP refuses foreign origins and hosts
 * before any tool runs, and missing, malformed, revoked, expired or query-string tokens with a 401 that
 * points at the resource metadata. Bogus tokens under forged X-Forwarded-For never get a valid client a
 * 429, with or without a trusted proxy (security #14).
 */
import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PDF_LIMITS } from "@/lib/engine/fetch/extract/pdf";
import { FAILED_AUTH_PER_MINUTE } from "@/lib/pipeline/rate-limit/limits";
import { createToken } from "@/lib/services/tokens/create-token";
import { revokeToken } from "@/lib/services/tokens/revoke-token";
import { hashToken } from "@/lib/services/tokens/token-format";
import { tokenCacheKey } from "@/lib/services/tokens/verify-token";
import { fakeProviderWires } from "@/tests/support/provider-env";
import { gigabytePdfBomb } from "@/tests/unit/fetch/pdf-fixture";
import { AuthKeys, forgedEntries, randomAddress } from "./support/forged-forwarded-for";
import { BLOCKED_URLS, isRaw, MCP_CASES, REST_CASES, type RestCase } from "./support/hostile-cases";
import { type LedgerSnapshot, ledger } from "./support/ledger";
import { connectMcp, mcpHeaders, resultText, toolCallBody } from "./support/mcp";
import type { NextServer } from "./support/next-server";
import { peakRssDuring, readRss } from "./support/process-memory";
import { rawRequest } from "./support/raw-http";
import { FIVE_PROVIDERS } from "./support/server-env";
import { type Stack, startStack } from "./support/stack";
import { type SeededTenant, seedTenant } from "./support/tenant";

const SETUP_MS = 10 * 60_000;
const OPERATOR_TOKEN = "hostile-operator-metrics-token";
const TEN_MB = Buffer.alloc(10 * 1024 * 1024, "x");
/** Fake-server wires a request could reach: the five search providers and every provider of every tool. */
const PROVIDER_PREFIXES = [...new Set([...FIVE_PROVIDERS, ...fakeProviderWires()])];
/** A page-site document that inflates to 1 GiB (security #14). */
const PDF_BOMB_PATH = "/documents/bomb.pdf";

describe("hostile input against next start", () => {
  let stack: Stack;
  let server: NextServer;
  let tenant: SeededTenant;
  let baseline: LedgerSnapshot;
  /** Tokens M2 presents: one revoked, one expired (created before the baseline: they are the test's writes). */
  let revokedToken: string;
  let expiring: { token: string; expiresAt: Date };
  /** SEARCHMUX_TRUSTED_PROXIES of instances started from now on (none for the first). */
  let trustedProxies = "";

  /** Every request any provider or the page site received so far. */
  const providerCalls = () =>
    PROVIDER_PREFIXES.reduce((sum, id) => sum + stack.fake.requests(id).length, 0) + stack.site.hits().length;
  const snapshot = () => ledger(stack.database.db, tenant.tenantId);
  /** Traces are written after the response; give them time to land before comparing. */
  const settledSnapshot = async () => {
    await sleep(1_500);
    return snapshot();
  };

  function sendRest(c: Pick<RestCase, "method" | "path" | "body">, token = tenant.token) {
    const body = c.body === undefined ? undefined : isRaw(c.body) ? c.body.raw : JSON.stringify(c.body);
    return fetch(`${server.url}${c.path}`, {
      method: c.method,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body,
    });
  }

  beforeAll(async () => {
    stack = await startStack({
      providerLatencyMs: 5,
      siteRoutes: {
        [PDF_BOMB_PATH]: { headers: { "content-type": "application/pdf" }, body: gigabytePdfBomb() },
      },
      // With AUTH_URL set, MCP also checks the Host header (M1).
      instanceEnv: (port) => ({
        AUTH_URL: `http://127.0.0.1:${port}`,
        SEARCHMUX_OPERATOR_TOKEN: OPERATOR_TOKEN,
        SEARCHMUX_TRUSTED_PROXIES: trustedProxies,
      }),
    });
    const [first] = stack.servers;
    if (!first) throw new Error("no instance");
    server = first;
    tenant = await seedTenant(stack.platform, { name: "hostile" });
    const revoked = await createToken({ ctx: tenant.ctx, input: { name: "revoked" } });
    await revokeToken({ ctx: tenant.ctx, input: { id: revoked.id } });
    revokedToken = revoked.token;
    const expiresAt = new Date(Date.now() + 1_000);
    expiring = {
      token: (await createToken({ ctx: tenant.ctx, input: { name: "expiring", expiresAt } })).token,
      expiresAt,
    };
    baseline = await snapshot();
  }, SETUP_MS);
  afterAll(async () => {
    await stack?.close();
  });

  describe("REST", () => {
    it.each(REST_CASES)("$method $path with $name → $status", async (c) => {
      const before = providerCalls();
      const response = await sendRest(c);
      const body = (await response.json().catch(() => ({}))) as { error?: { message?: string } };
      expect({ status: response.status, message: body.error?.message }).toEqual({
        status: c.status,
        message: expect.stringMatching(c.message),
      });
      expect(providerCalls()).toBe(before);
    });

    it("refuses 10 MB bodies, declared or chunked, with 413 and flat memory (R2)", async () => {
      const send = (chunked: boolean) =>
        rawRequest(`${server.url}/api/v1/search`, {
          method: "POST",
          headers: { authorization: `Bearer ${tenant.token}`, "content-type": "application/json" },
          body: TEN_MB,
          chunked,
        });
      // The first few settle the server's buffers; memory must then stay flat however many follow.
      for (let i = 0; i < 6; i++) expect((await send(i % 2 === 1)).status).toBe(413);
      const before = readRss(server.pid).rssMb;
      for (let i = 0; i < 24; i++) {
        const chunked = i % 3 === 2;
        const response = await send(chunked);
        expect({ chunked, status: response.status }).toEqual({ chunked, status: 413 });
      }
      const grownMb = readRss(server.pid).rssMb - before;
      // Holding the 24 refused bodies would add 240 MB; what remains is heap the collector has not returned.
      expect(grownMb).toBeLessThan(80);
    }, 120_000);
  });

  describe("MCP", () => {
    let client: Client;
    beforeAll(async () => {
      client = await connectMcp(server.url, tenant.token);
    });
    afterAll(async () => {
      await client?.close();
    });

    it.each(MCP_CASES)("$tool with $name → a tool error naming it", async (c) => {
      const before = providerCalls();
      const outcome = await client.callTool({ name: c.tool, arguments: c.args }).then(
        (result) => ({ isError: result.isError === true, text: resultText(result) }),
        (error: unknown) => ({ isError: true, text: error instanceof Error ? error.message : String(error) }),
      );
      expect(outcome.isError).toBe(true);
      expect(outcome.text).toMatch(c.message);
      expect(providerCalls()).toBe(before);
    });

    it("refuses an oversized JSON-RPC body with 413 and a malformed one with a parse error", async () => {
      const oversized = await rawRequest(`${server.url}/api/mcp`, {
        method: "POST",
        headers: mcpHeaders(tenant.token),
        body: toolCallBody("web_search", { query: "x".repeat(300 * 1024) }),
      });
      expect(oversized.status).toBe(413);
      const malformed = await rawRequest(`${server.url}/api/mcp`, {
        method: "POST",
        headers: mcpHeaders(tenant.token),
        body: '{"jsonrpc": "2.0", "method": ',
      });
      expect(malformed.status).toBe(400);
      expect(malformed.text).toMatch(/parse error/i);
    });

    it("refuses a foreign Origin or Host with 403 before any tool runs (M1)", async () => {
      const before = providerCalls();
      const call = toolCallBody("web_search", { query: "from another site", providers: [...FIVE_PROVIDERS] });
      const foreignOrigin = await rawRequest(`${server.url}/api/mcp`, {
        method: "POST",
        headers: { ...mcpHeaders(tenant.token), origin: "https://evil.test" },
        body: call,
      });
      const foreignHost = await rawRequest(`${server.url}/api/mcp`, {
        method: "POST",
        headers: { ...mcpHeaders(tenant.token), host: "evil.test" },
        body: call,
      });
      expect([foreignOrigin.status, foreignHost.status]).toEqual([403, 403]);
      expect(foreignOrigin.text).toMatch(/evil\.test/);
      expect(foreignHost.text).toMatch(/evil\.test/);
      expect(providerCalls()).toBe(before);
    });

    it("serves MCP for AUTH_URL's host only: rebound names, loopback names and other ports get 403 (M1)", async () => {
      const before = providerCalls();
      const { port } = new URL(server.url);
      const call = toolCallBody("web_search", { query: "rebound", providers: [...FIVE_PROVIDERS] });
      const routes = { "header token": "/api/mcp", "URL token": `/api/mcp/t/${tenant.token}` };
      const hosts = [
        `evil.test:${port}`,
        `127.0.0.1.evil.test:${port}`,
        `localhost:${port}`,
        `127.0.0.1:${Number(port) + 1}`,
      ];
      for (const [route, path] of Object.entries(routes)) {
        for (const host of hosts) {
          const response = await rawRequest(`${server.url}${path}`, {
            method: "POST",
            headers: { ...mcpHeaders(tenant.token), host },
            body: call,
          });
          expect({ route, host, status: response.status, body: JSON.parse(response.text) }).toEqual({
            route,
            host,
            status: 403,
            body: {
              error: { code: "forbidden", message: expect.stringContaining(`requests for host '${host}'`) },
            },
          });
        }
      }
      expect(providerCalls()).toBe(before);
    });

    it("answers missing, malformed, revoked, expired and query-string tokens with 401 and the resource metadata (M2)", async () => {
      await sleep(Math.max(0, expiring.expiresAt.getTime() - Date.now() + 100));
      const call = toolCallBody("budget_status", {});
      const headers = mcpHeaders("");
      const attempts: Array<[string, string, Record<string, string>]> = [
        ["missing", "/api/mcp", { ...headers, authorization: "" }],
        ["malformed", "/api/mcp", { ...headers, authorization: "Bearer smx_not-a-real-token" }],
        ["revoked", "/api/mcp", { ...headers, authorization: `Bearer ${revokedToken}` }],
        ["expired", "/api/mcp", { ...headers, authorization: `Bearer ${expiring.token}` }],
        ["query-string", `/api/mcp?access_token=${tenant.token}`, { ...headers, authorization: "" }],
      ];
      for (const [kind, path, attemptHeaders] of attempts) {
        const response = await rawRequest(`${server.url}${path}`, {
          method: "POST",
          headers: attemptHeaders,
          body: call,
        });
        expect({ kind, status: response.status }).toEqual({ kind, status: 401 });
        expect(response.headers["www-authenticate"]).toMatch(/^Bearer .*resource_metadata="?http/);
      }
    });
  });

  it("adds no metric series for random paths, ids and tokens, refused ones included", async () => {
    const httpSeries = async () => {
      const response = await fetch(`${server.url}/api/metrics`, {
        headers: { authorization: `Bearer ${OPERATOR_TOKEN}` },
      });
      expect(response.status).toBe(200);
      const lines = (await response.text()).split("\n");
      return new Set(
        lines.filter((l) => l.startsWith("searchmux_http_requests_total{")).map((l) => l.split(" ")[0]),
      );
    };
    const before = await httpSeries();
    const expected = new Set(before);
    const send = async (route: string, path: string, init: RequestInit = {}) => {
      const response = await fetch(`${server.url}${path}`, init);
      expected.add(`searchmux_http_requests_total{route="${route}",status="${response.status}"}`);
      return response.status;
    };
    const randomId = () => randomBytes(9).toString("base64url");
    const authorized = { headers: { authorization: `Bearer ${tenant.token}` } };
    for (let i = 0; i < 300; i++) {
      expect(await send("/api/v1/traces/[id]", `/api/v1/traces/${randomId()}`, authorized)).toBe(400);
    }
    // Refused authentications, fewer than the failed-authentication limit: later cases still get 401.
    for (let i = 0; i < 4; i++) {
      expect(await send("/api/v1/traces/[id]", `/api/v1/traces/${randomId()}`)).toBe(401);
      const mcp = { method: "POST", headers: mcpHeaders(""), body: toolCallBody("budget_status", {}) };
      expect(await send("/api/mcp/t/[token]", `/api/mcp/t/smx_${randomId()}`, mcp)).toBe(401);
    }
    // One series per route template and status, whatever the path said.
    expect([...(await httpSeries())].sort()).toEqual([...expected].sort());
  });

  it("wrote and charged nothing for any refused input", async () => {
    expect(await settledSnapshot()).toEqual(baseline);
    expect(providerCalls()).toBe(0);
  });

  it("refuses fetch targets the SSRF guard blocks with 400, reaching nothing and charging nothing", async () => {
    const before = await settledSnapshot();
    const callsBefore = providerCalls();
    const client = await connectMcp(server.url, tenant.token);
    try {
      for (const { url, message } of BLOCKED_URLS) {
        const rest = await sendRest({ method: "POST", path: "/api/v1/fetch", body: { url } });
        const body = (await rest.json()) as { error?: { message?: string } };
        expect({ url, status: rest.status, message: body.error?.message }).toEqual({
          url,
          status: 400,
          message: expect.stringMatching(message),
        });
        const tool = await client.callTool({ name: "fetch", arguments: { url } });
        expect(tool.isError).toBe(true);
        expect(resultText(tool)).toMatch(message);
      }
    } finally {
      await client.close();
    }
    const after = await settledSnapshot();
    expect(providerCalls()).toBe(callsBefore);
    // The refused calls may be traced (status error); nothing else changes.
    expect({ ...after, traces: 0 }).toEqual({ ...before, traces: 0 });
  });

  it("refuses a query made of control characters with 400 naming the query", async () => {
    const before = await settledSnapshot();
    const callsBefore = providerCalls();
    const response = await sendRest({
      method: "POST",
      path: "/api/v1/search",
      body: { query: "rust\u0000async\u0007\u001b[2J runtime", providers: [...FIVE_PROVIDERS] },
    });
    const body = (await response.json()) as { error?: { message?: string } };
    expect({ status: response.status, message: body.error?.message }).toEqual({
      status: 400,
      message: expect.stringMatching(/query/),
    });
    expect(providerCalls()).toBe(callsBefore);
    expect(await settledSnapshot()).toEqual(before);
  });

  it("answers PDF bombs promptly with too_large while the server keeps answering, in bounded memory", async () => {
    const bombs = 2;
    const fetchBomb = () =>
      sendRest({
        method: "POST",
        path: "/api/v1/fetch",
        body: { url: `${stack.site.url}${PDF_BOMB_PATH}`, providers: ["direct"], no_cache: true },
      });
    const started = performance.now();
    let inFlight = true;
    const healthChecks: number[] = [];
    const checkHealth = async () => {
      while (inFlight) {
        const sent = performance.now();
        expect((await fetch(`${server.url}/api/health`)).status).toBe(200);
        healthChecks.push(performance.now() - sent);
        await sleep(100);
      }
    };
    const health = checkHealth();
    const { result: responses, peakMb } = await peakRssDuring(server.pid, async () => {
      const before = readRss(server.pid).rssMb;
      const answered = await Promise.all(Array.from({ length: bombs }, fetchBomb));
      return { answered, before };
    }).finally(() => {
      inFlight = false;
    });
    await health;
    for (const response of responses.answered) {
      const body = (await response.json()) as { error?: { message?: string } };
      expect({ status: response.status, message: body.error?.message }).toEqual({
        status: 502,
        message: expect.stringMatching(/direct: too_large/),
      });
    }
    // Each parse is stopped by its caps (too_large above): the decode cap within seconds, and whatever
    // else at the worker's time cap. Bounded generously by twice that cap, which a timer enforces.
    expect(performance.now() - started).toBeLessThan(2 * PDF_LIMITS.timeMs);
    // The loop kept answering meanwhile: health checks came back one after another while the bombs were
    // parsed (a server whose loop the parse blocked answers one, if any, before the bombs' answers).
    expect(healthChecks.length).toBeGreaterThanOrEqual(3);
    // Decoded, the bombs are 2 GiB; the workers' caps hold each to a few hundred MiB.
    expect(peakMb - responses.before).toBeLessThan(1_000);
    const page = await sendRest({ method: "POST", path: "/api/v1/fetch", body: { url: stack.pageUrl(0) } });
    expect(page.status).toBe(200);
  }, 120_000);

  describe("bogus tokens under forged X-Forwarded-For (security #14)", () => {
    /** An instance behind one trusted proxy: this test, which appends the entry a proxy would. */
    let proxied: NextServer;
    /** A valid client of its own workspace, so the ledger cases above are not concerned. */
    let client: SeededTenant;
    const left = new AuthKeys();

    const usage = async (base: string, token: string, forwardedFor?: string) => {
      const headers: Record<string, string> = { authorization: `Bearer ${token}` };
      if (forwardedFor !== undefined) headers["x-forwarded-for"] = forwardedFor;
      return (await fetch(`${base}/api/v1/usage`, { headers })).status;
    };
    /** The client's token, cached valid or (after its KV entry is dropped) cold: both must pass. */
    const clientPasses = async (base: string, forwardedFor?: string) => {
      expect(await usage(base, client.token, forwardedFor)).toBe(200);
      await stack.platform.kv.del(tokenCacheKey(hashToken(client.token)));
      expect(await usage(base, client.token, forwardedFor)).toBe(200);
    };

    beforeAll(async () => {
      client = await seedTenant(stack.platform, { name: "forwarded" });
      left.token(client.token, client.tokenId);
      trustedProxies = "1";
      proxied = await stack.startInstance();
      trustedProxies = "";
    }, SETUP_MS);
    afterAll(async () => {
      await left.delete(stack.platform.kv);
    });

    it("behind one trusted proxy, limits a guesser on the entry the proxy wrote; the client it names stays in", async () => {
      const guesser = left.address(randomAddress());
      const victim = left.address(randomAddress());
      await clientPasses(proxied.url, victim);
      const statuses: number[] = [];
      for (let i = 0; i < 200; i++) {
        const forwardedFor = [...forgedEntries(victim, i), guesser].join(", ");
        statuses.push(await usage(proxied.url, left.bogusToken(), forwardedFor));
        // The victim, and a client behind the guesser's own address with a token that verified before.
        if (i % 25 === 24) {
          await clientPasses(proxied.url, victim);
          await clientPasses(proxied.url, `${victim}, ${guesser}`);
        }
      }
      expect(statuses.slice(0, FAILED_AUTH_PER_MINUTE)).toEqual(Array(FAILED_AUTH_PER_MINUTE).fill(401));
      expect(new Set(statuses.slice(FAILED_AUTH_PER_MINUTE))).toEqual(new Set([429]));
      expect(await usage(proxied.url, left.bogusToken(), victim)).toBe(401);
    });

    it("without trusted proxies, 1000 bogus tokens never get a valid client 429, cached or cold", async () => {
      const victim = randomAddress();
      const statuses = new Set<number>();
      for (let round = 0; round < 20; round++) {
        const guesses = Array.from({ length: 50 }, (_, i) =>
          usage(
            server.url,
            left.bogusToken(),
            i % 5 === 0 ? undefined : [...forgedEntries(victim, i), victim].join(", "),
          ),
        );
        // The client's calls run among the guesses, with and without the address it would claim.
        await clientPasses(server.url, round % 2 === 0 ? victim : undefined);
        for (const status of await Promise.all(guesses)) statuses.add(status);
      }
      expect([...statuses]).toEqual([401]);
    }, 120_000);
  });
});
