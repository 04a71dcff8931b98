/**
 * REST contract: every /api/v1 route's shapes and statuses, through the real route handlers, the real
 * token wrapper and verbs, an embedded database and the fake provider server.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { RouteMethod } from "@/lib/api/route-methods";
import { ANSWER_PREFIX, ANSWER_WIRES } from "@/tests/fakes/answer-wires";
import { PAPER_WIRES } from "@/tests/fakes/paper-wires";
import { type FakeProviders, startFakeProviders } from "@/tests/fakes/provider-server";
import { serveRequest } from "@/tests/support/app-routes";
import { fakeProviderEnv } from "@/tests/support/provider-env";
import {
  inProcessApp,
  newToken,
  operatorWorkspace,
  type RouteHandler,
  routeRequest,
} from "@/tests/support/route-handlers";

const app = inProcessApp("rest");
let fake: FakeProviders;

type Route = RouteHandler<Record<string, never>>;

async function call(
  route: string,
  method: RouteMethod,
  {
    token,
    body,
    query = "",
    ip = "192.0.2.10",
  }: { token?: string; body?: unknown; query?: string; ip?: string } = {},
) {
  const request = routeRequest(`/api/v1/${route}${query}`, {
    method,
    token,
    body,
    headers: { "x-forwarded-for": ip },
  });
  const response = await serveRequest(request);
  return { status: response.status, headers: response.headers, body: await response.json() };
}

let admin: string;
let searchOnly: string;
let tenantId: string;
let otherTenantToken: string;

beforeAll(async () => {
  fake = await startFakeProviders({ ...ANSWER_WIRES, ...PAPER_WIRES });
  await app.start({
    ...fakeProviderEnv(fake.url),
    BRAVE_API_KEY: "operator-brave",
    PERPLEXITY_BASE_URL: fake.baseUrlFor(ANSWER_PREFIX.perplexity),
    PERPLEXITY_API_KEY: "operator-pplx",
    SEARCHMUX_RATE_LIMIT_RPM: "1000",
    // One proxy in front (as on most hosts): the client is the last X-Forwarded-For entry.
    SEARCHMUX_TRUSTED_PROXIES: "1",
  });
  const { SCOPES } = await import("@/lib/pipeline/context");
  const ctx = await operatorWorkspace("rest");
  const other = await operatorWorkspace("other");
  tenantId = ctx.tenantId;
  admin = await newToken(ctx, { name: "admin", scopes: [...SCOPES] });
  searchOnly = await newToken(ctx, { name: "search-only", scopes: ["search"] });
  otherTenantToken = await newToken(other, { name: "b", scopes: [...SCOPES] });
});

afterAll(async () => {
  await app.stop();
  await fake?.close();
});

beforeEach(() => {
  fake.resetScenarios();
  fake.clearRequests();
});

// Perplexity's key (for answers) would add Perplexity search too; these tests use the three search wires.
const SEARCH_PROVIDERS = ["brave", "duckduckgo", "wikipedia"];

describe("POST /api/v1/search", () => {
  it("answers the documented shape with rate-limit headers, then from the cache", async () => {
    const first = await call("search", "POST", {
      token: admin,
      body: { query: "rest contract", max_results: 5, providers: SEARCH_PROVIDERS },
    });
    expect(first.status).toBe(200);
    expect(Object.keys(first.body).sort()).toEqual(
      [
        "adjustments",
        "cache_hit",
        "duration_ms",
        "providers_failed",
        "providers_skipped",
        "providers_succeeded",
        "query",
        "results",
        "trace_id",
      ].sort(),
    );
    expect(Object.keys(first.body.results[0]).sort()).toEqual(
      ["score", "snippet", "snippet_source", "sources", "title", "url"].sort(),
    );
    expect(first.body.providers_succeeded.map((p: { provider: string }) => p.provider).sort()).toEqual([
      "brave",
      "duckduckgo",
      "wikipedia",
    ]);
    expect(first.headers.get("ratelimit")).toMatch(/^limit=1000, remaining=\d+, reset=\d+$/);
    expect(first.headers.get("ratelimit-policy")).toBe("1000;w=60");
    // The token check and the call, timed by the server; the call includes the providers' answers.
    const timing = /^auth;dur=(\d+\.\d), call;dur=(\d+\.\d)$/.exec(first.headers.get("server-timing") ?? "");
    expect(timing).not.toBeNull();
    expect(Number(timing?.[2])).toBeGreaterThanOrEqual(first.body.duration_ms - 1);
    const { flushPendingWrites } = await import("@/lib/pipeline/platform");
    await flushPendingWrites();
    const traceRoute = (await import("@/app/api/v1/traces/[id]/route")) as {
      GET: (request: Request, context: { params: Promise<{ id: string }> }) => Promise<Response>;
    };
    const trace = await traceRoute.GET(
      new Request(`http://localhost/api/v1/traces/${first.body.trace_id}`, {
        headers: { authorization: `Bearer ${admin}` },
      }),
      { params: Promise.resolve({ id: first.body.trace_id }) },
    );
    expect(trace.status).toBe(200);
    expect((await trace.json()).spans).toHaveLength(3);
    const again = await call("search", "POST", {
      token: admin,
      body: { query: "rest contract", max_results: 5, providers: SEARCH_PROVIDERS },
    });
    expect(again.body.cache_hit).toBe(true);
  });

  it("says which providers it did not ask and why: left out by auto mode once measured", async () => {
    const ctx = await operatorWorkspace("auto-rest");
    const token = await newToken(ctx, { name: "auto" });
    const search = (query: string) => call("search", "POST", { token, body: { query } });
    // A new workspace runs in auto mode; it asks everyone until the paid providers are measured.
    const { MIN_OBSERVATIONS } = await import("@/lib/pipeline/contribution/auto-plan");
    for (let i = 0; i < MIN_OBSERVATIONS; i++) {
      const measuring = await search(`auto rest ${i}`);
      expect(measuring.body.providers_skipped).toEqual([]);
    }
    const { flushPendingWrites } = await import("@/lib/pipeline/platform");
    await flushPendingWrites();
    // brave and perplexity (paid) answer the same pages as duckduckgo (free); wikipedia's are its own. One
    // paid provider agreeing with duckduckgo puts their pages above wikipedia's as the full fan-out does;
    // the second adds nothing. A search may explore (asks everyone, 1 in 20): twenty in a row all
    // exploring would be a 1-in-10²⁶ chance.
    let skipped: unknown[] = [];
    for (let i = 0; i < 20 && skipped.length === 0; i++)
      skipped = (await search(`planned ${i}`)).body.providers_skipped;
    expect(skipped).toEqual([{ provider: "perplexity", reason: "low_contribution" }]);
    const named = await call("search", "POST", { token, body: { query: "named", mode: "fanout" } });
    expect(named.body.providers_skipped).toEqual([]);
  });

  it("401s without, with a wrong, and with a malformed token; 403s without the scope", async () => {
    const missing = await call("search", "POST", { body: { query: "x" } });
    expect(missing.status).toBe(401);
    expect(missing.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect(missing.body.error.code).toBe("unauthorized");
    expect(
      (
        await call("search", "POST", {
          token: `${admin.slice(0, -1)}${admin.endsWith("x") ? "y" : "x"}`,
          body: { query: "x" },
        })
      ).status,
    ).toBe(401);
    expect((await call("search", "POST", { token: "smx_not_a_token", body: { query: "x" } })).status).toBe(
      401,
    );
    const noScope = await call("fetch", "POST", { token: searchOnly, body: { url: "https://example.com/" } });
    expect(noScope).toMatchObject({ status: 403, body: { error: { code: "forbidden" } } });
  });

  it("refuses an address after 20 failed authentications, but not a token already known valid", async () => {
    const ip = "198.51.100.77";
    const guess = (i: number) => `smx_${String(i).padStart(38, "0")}`;
    await call("search", "POST", { token: admin, body: { query: "warm the token" }, ip });
    for (let i = 0; i < 20; i++) {
      expect((await call("usage", "GET", { token: `${admin.slice(0, -2)}${i}`, ip })).status).toBe(401);
    }
    const blocked = await call("usage", "GET", { token: guess(1), ip });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
    // The failures count in the current minute, which weighs on the next one too (sliding window): up to
    // two minutes, when they came at the start of a minute (the bound was 60, missed one run in ten).
    expect(Number(blocked.headers.get("retry-after"))).toBeLessThanOrEqual(120);
    expect((await call("usage", "GET", { ip })).status).toBe(429);
    expect((await call("usage", "GET", { token: admin, ip })).status).toBe(200);
    expect((await call("usage", "GET", { token: guess(2), ip: "198.51.100.78" })).status).toBe(401);
    // A client cannot pick its bucket: entries left of what the proxy appended are not believed.
    const forged = `198.51.100.79, ${ip}`;
    expect((await call("usage", "GET", { token: guess(3), ip: forged })).status).toBe(429);
  });

  it("400s on unknown fields, bad values and bad JSON; 413s on a huge body", async () => {
    const unknown = await call("search", "POST", { token: admin, body: { query: "x", colour: "blue" } });
    expect(unknown).toMatchObject({ status: 400, body: { error: { code: "invalid_input" } } });
    expect(unknown.body.error.message).toMatch(/^unknown field "colour" \(known: query, /);
    const empty = await call("search", "POST", { token: admin, body: { query: "", mode: "everything" } });
    expect(empty).toMatchObject({
      status: 400,
      body: {
        error: {
          message: "query: must not be empty; mode: must be one of fanout, auto, budget, single",
          details: [
            { path: "query", message: "must not be empty" },
            { path: "mode", message: "must be one of fanout, auto, budget, single" },
          ],
        },
      },
    });
    expect((await call("search", "POST", { token: admin, body: "{not json" })).status).toBe(400);
    const huge = await call("search", "POST", { token: admin, body: { query: "x".repeat(300_000) } });
    expect(huge).toMatchObject({ status: 413, body: { error: { code: "payload_too_large" } } });
  });

  it("502s with every provider's reason when all fail", async () => {
    for (const id of ["brave", "duckduckgo", "wikipedia"]) fake.setScenario(id, { status: 500 });
    const failed = await call("search", "POST", {
      token: admin,
      body: { query: "all down", no_cache: true, providers: SEARCH_PROVIDERS },
    });
    expect(failed.status).toBe(502);
    expect(failed.body.error.code).toBe("all_providers_failed");
    expect(failed.body.error.details).toHaveLength(3);
  });

  it("402s when budgets refuse every provider, naming the budget and its reset", async () => {
    const put = await call("budgets", "PUT", {
      token: admin,
      body: { provider: "*", metric: "requests", period: "day", limit: 0 },
    });
    expect(put.status).toBe(200);
    const refused = await call("search", "POST", {
      token: admin,
      body: { query: "no budget", no_cache: true },
    });
    expect(refused.status).toBe(402);
    expect(refused.body.error.message).toMatch(/all providers: requests per day limit reached \(resets /);
    await call("budgets", "DELETE", { token: admin, query: `?id=${put.body.id}` });
  });
});

describe("estimate: true", () => {
  it("answers 200 {estimate} on every tool route and calls nothing, research queuing no job", async () => {
    const search = await call("search", "POST", {
      token: admin,
      body: { query: "what would it cost", providers: SEARCH_PROVIDERS, estimate: true },
    });
    expect(search).toMatchObject({ status: 200, body: { estimate: { max_cost_usd: 0.005 } } });
    expect(search.body.estimate.providers.sort()).toEqual(["brave", "duckduckgo", "wikipedia"]);
    expect(Object.keys(search.body)).toEqual(["estimate"]);
    // An estimate is a request like any other for the token's rate limit.
    const remaining = (response: { headers: Headers }) =>
      Number(/remaining=(\d+)/.exec(response.headers.get("ratelimit") ?? "")?.[1]);
    const again = await call("search", "POST", {
      token: admin,
      body: { query: "what would it cost", estimate: true },
    });
    expect(remaining(again)).toBe(remaining(search) - 1);
    const research = await call("research", "POST", {
      token: searchOnly,
      body: { question: "what would it cost", max_queries: 2, providers: ["brave"], estimate: true },
    });
    expect(research.status).toBe(200);
    expect(Object.keys(research.body)).toEqual(["estimate"]);
    expect(research.body.estimate.providers).toEqual(expect.arrayContaining(["brave", "direct"]));
    const { getDatabase } = await import("@/lib/db");
    const { researchJobs } = await import("@/lib/db/schema");
    const db = await getDatabase();
    expect(await db.withTenant(tenantId, (tx) => tx.select().from(researchJobs))).toEqual([]);
    const usage = await call("usage", "GET", { token: admin, query: "?estimate=true" });
    expect(usage).toMatchObject({ status: 200, body: { estimate: { providers: [], max_cost_usd: 0 } } });
    // estimate: false is the call itself.
    const searched = await call("search", "POST", {
      token: admin,
      body: { query: "what would it cost", providers: ["duckduckgo"], estimate: false },
    });
    expect(searched.body.results.length).toBeGreaterThan(0);
    expect(fake.requests("brave")).toHaveLength(0);
  });
});

describe("the other tools", () => {
  it("answers, searches papers and refuses a private URL to fetch", async () => {
    const answered = await call("answer", "POST", {
      token: admin,
      body: { query: "runtime?", providers: ["perplexity"] },
    });
    expect(answered.status).toBe(200);
    expect(answered.body.answers[0]).toMatchObject({ provider: "perplexity", citations: expect.any(Array) });
    const papers = await call("papers", "POST", {
      token: admin,
      body: { query: "attention", providers: ["arxiv"] },
    });
    expect(papers.status).toBe(200);
    expect(papers.body.results.length).toBeGreaterThan(0);
    const privateUrl = await call("fetch", "POST", { token: admin, body: { url: "http://127.0.0.1:1/" } });
    expect(privateUrl).toMatchObject({ status: 400, body: { error: { code: "invalid_input" } } });
  });
});

describe("management routes", () => {
  it("stores keys without ever returning them, and lists usage", async () => {
    const put = await call("keys", "PUT", {
      token: admin,
      body: { provider: "exa", key: "exa-secret-value-9876" },
    });
    expect(put).toMatchObject({ status: 200, body: { provider: "exa", last4: "9876" } });
    const list = await call("keys", "GET", { token: admin });
    expect(JSON.stringify(list.body)).not.toContain("exa-secret-value");
    expect((await call("keys", "DELETE", { token: admin, query: "?provider=exa" })).status).toBe(200);
    expect((await call("keys", "DELETE", { token: admin, query: "?provider=exa" })).status).toBe(404);
    const usage = await call("usage", "GET", { token: searchOnly });
    expect(usage.status).toBe(200);
    expect(usage.body.providers.length).toBeGreaterThan(0);
    expect((await call("keys", "GET", { token: searchOnly })).status).toBe(403);
  });

  it("reads and changes workspace settings for admins only, with clear errors", async () => {
    const read = await call("settings", "GET", { token: admin });
    expect(read).toMatchObject({
      status: 200,
      body: { default_search_mode: "auto", grounded_snippets: false },
    });
    expect((await call("settings", "GET", { token: searchOnly })).status).toBe(403);
    const patch = (body: unknown, token = admin) => call("settings", "PATCH", { token, body });
    expect(await patch({ default_search_mode: "fanout" })).toMatchObject({
      status: 200,
      body: { default_search_mode: "fanout" },
    });
    expect((await patch({ default_search_mode: "fanout" }, searchOnly)).status).toBe(403);
    const bad = await patch({ default_search_mode: "single" });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/default_search_mode/);
    expect((await patch({ defaultSearchMode: "auto" })).status).toBe(400);
    expect((await patch({})).status).toBe(400);
    expect((await call("settings", "PUT", { token: admin, body: {} })).status).toBe(405);
    expect((await call("settings", "GET", { token: admin })).body.default_search_mode).toBe("fanout");
    expect((await patch({ default_search_mode: "auto" })).status).toBe(200);
  });

  it("creates (201), lists and revokes tokens; another tenant's id is 404", async () => {
    const created = await call("tokens", "POST", { token: admin, body: { name: "ci", scopes: ["search"] } });
    expect(created.status).toBe(201);
    expect(created.body.token).toMatch(/^smx_/);
    const list = await call("tokens", "GET", { token: admin });
    expect(JSON.stringify(list.body)).not.toContain(created.body.token);
    expect(
      (await call("tokens", "DELETE", { token: otherTenantToken, query: `?id=${created.body.id}` })).status,
    ).toBe(404);
    expect((await call("tokens", "DELETE", { token: admin, query: `?id=${created.body.id}` })).status).toBe(
      200,
    );
    expect((await call("search", "POST", { token: created.body.token, body: { query: "x" } })).status).toBe(
      401,
    );
  });

  it("429s over the tenant's rate limit with Retry-After", async () => {
    const { tenantContext } = await import("@/lib/pipeline/platform");
    const { updateTenant } = await import("@/lib/services/tenants/update-tenant");
    const { createToken } = await import("@/lib/services/tokens/create-token");
    const ctx = await tenantContext({ kind: "operator" }, tenantId, ["admin", "search"], "rest");
    await updateTenant({ ctx, input: { rateLimitRpm: 2 } });
    const limited = (await createToken({ ctx, input: { name: "limited", scopes: ["search"] } })).token;
    const statuses = [];
    let last: Awaited<ReturnType<typeof call>> | undefined;
    for (let i = 0; i < 4; i++) {
      last = await call("usage", "GET", { token: limited });
      statuses.push(last.status);
    }
    expect(statuses).toEqual([200, 200, 429, 429]);
    expect(Number(last?.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    await updateTenant({ ctx, input: { rateLimitRpm: null } });
  });
});

describe("compatibility endpoints", () => {
  it("serves GPT-Researcher's custom retriever with the token as ?api_key=", async () => {
    const get: Route = (await import("@/app/api/researcher/route")).GET;
    const url = `http://localhost/api/researcher?query=compat&max_results=2&api_key=${admin}`;
    const response = await get(new Request(url), { params: Promise.resolve({}) });
    expect(response.status).toBe(200);
    const body = (await response.json()) as Array<Record<string, string>>;
    expect(body.length).toBeGreaterThan(0);
    expect(body.length).toBeLessThanOrEqual(2);
    expect(Object.keys(body[0] ?? {}).sort()).toEqual(["body", "href", "raw_content", "title", "url"]);
    const denied = await get(new Request("http://localhost/api/researcher?query=x&api_key=smx_wrong"), {
      params: Promise.resolve({}),
    });
    expect(denied.status).toBe(401);
  });

  it("serves Open WebUI's external search: {query, count} → [{link, title, snippet}]", async () => {
    const search: Route = (await import("@/app/api/search/route")).POST;
    const response = await search(
      new Request("http://localhost/api/search", {
        method: "POST",
        headers: { authorization: `Bearer ${admin}`, "content-type": "application/json" },
        body: JSON.stringify({ query: "open webui", count: 3 }),
      }),
      { params: Promise.resolve({}) },
    );
    expect(response.status).toBe(200);
    const body = (await response.json()) as Array<Record<string, string>>;
    expect(body.length).toBeLessThanOrEqual(3);
    expect(Object.keys(body[0] ?? {}).sort()).toEqual(["link", "snippet", "title"]);
  });
});
