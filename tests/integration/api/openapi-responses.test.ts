/**
 * The OpenAPI document against the real API: one real call of every documented operation (route
 * handlers, token wrapper, verbs, an embedded database, the fake providers and a local page site) must
 * answer a body its documented success schema accepts, and the same operation without a token a body its
 * documented 401 accepts. The schemas are closed, so a field a route adds without documenting it fails here.
 */
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RouteMethod } from "@/lib/api/route-methods";
import { ANSWER_PREFIX, ANSWER_WIRES } from "@/tests/fakes/answer-wires";
import { IMAGE_WIRES, imageWireId } from "@/tests/fakes/image-wires";
import { PAPER_WIRES } from "@/tests/fakes/paper-wires";
import { type FakeProviders, startFakeProviders } from "@/tests/fakes/provider-server";
import { serveRequest } from "@/tests/support/app-routes";
import { type ArticleSite, startArticleSite } from "@/tests/support/article-site";
import { fakeProviderEnv } from "@/tests/support/provider-env";
import { inProcessApp, newToken, operatorWorkspace, routeRequest } from "@/tests/support/route-handlers";

const app = inProcessApp("openapi-responses");
let fake: FakeProviders;
let site: ArticleSite | undefined;
let admin = "";

type Schema = Record<string, unknown>;
interface Documented {
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
}
let document: {
  paths: Record<string, Record<string, Documented>>;
  components: { schemas: { Error: Schema } };
};

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);

/** The documented schema of `status` for the operation at `template`. */
function documentedSchema(method: RouteMethod, template: string, status: number): Schema {
  const operation = document.paths[template]?.[method.toLowerCase()];
  if (!operation) throw new Error(`${method} ${template} is not documented`);
  const schema = operation.responses[String(status)]?.content?.["application/json"]?.schema;
  if (!schema) throw new Error(`${method} ${template} documents no ${status}`);
  return schema.$ref === "#/components/schemas/Error" ? document.components.schemas.Error : schema;
}

/** Calls the operation for real; its body must be what the document says for the status it answered. */
async function expectDocumented(
  method: RouteMethod,
  template: string,
  { path = template, body, token = admin }: { path?: string; body?: unknown; token?: string | null } = {},
) {
  const response = await serveRequest(
    routeRequest(path, { method, token, body, headers: { "x-forwarded-for": "192.0.2.40" } }),
  );
  const json: unknown = await response.json();
  const validate = ajv.compile(documentedSchema(method, template, response.status));
  expect({
    at: `${method} ${path} → ${response.status}`,
    errors: validate(json) ? null : validate.errors,
  }).toEqual({
    at: `${method} ${path} → ${response.status}`,
    errors: null,
  });
  // The schema has just accepted it: the fields the steps below read are there.
  return { status: response.status, body: json as { id: string; [list: string]: unknown } };
}

beforeAll(async () => {
  fake = await startFakeProviders({ ...ANSWER_WIRES, ...PAPER_WIRES, ...IMAGE_WIRES });
  site = await startArticleSite("A page", "Documented responses are what clients generate their types from.");
  await app.start({
    ...fakeProviderEnv(fake.url),
    BRAVE_API_KEY: "operator-brave",
    PERPLEXITY_BASE_URL: fake.baseUrlFor(ANSWER_PREFIX.perplexity),
    PERPLEXITY_API_KEY: "operator-pplx",
    SEARCHMUX_FETCH_ALLOWLIST: "127.0.0.1",
    SEARCHMUX_RATE_LIMIT_RPM: "1000",
    SEARXNG_URL: fake.baseUrlFor(imageWireId("searxng")),
    // The operator model extract would ask (its estimate names it).
    SEARCHMUX_LLM_BASE_URL: fake.baseUrlFor(ANSWER_PREFIX.llm),
    SEARCHMUX_LLM_MODEL: "documented-model",
  });
  document = (await import("@/lib/api/openapi")).openApiDocument() as unknown as typeof document;
  const { SCOPES } = await import("@/lib/pipeline/context");
  admin = await newToken(await operatorWorkspace("openapi"), { name: "admin", scopes: [...SCOPES] });
});

afterAll(async () => {
  await app.stop();
  site?.close();
  await fake?.close();
});

describe("every documented operation answers what the document says", () => {
  const exercised = new Set<string>();
  const call = async (...args: Parameters<typeof expectDocumented>) => {
    exercised.add(`${args[0].toLowerCase()} ${args[1]}`);
    return expectDocumented(...args);
  };

  it("the tools", async () => {
    const search = await call("POST", "/api/v1/search", {
      body: { query: "documented", providers: ["brave", "duckduckgo", "wikipedia"] },
    });
    expect(search.status).toBe(200);
    const fetched = await call("POST", "/api/v1/fetch", {
      body: { url: `${site?.origin}/page`, providers: ["direct"] },
    });
    expect(fetched.status).toBe(200);
    const batch = await call("POST", "/api/v1/fetch", {
      body: { urls: [`${site?.origin}/page`, "http://10.0.0.1/"], providers: ["direct"] },
    });
    expect(batch.status).toBe(200);
    expect(batch.body.results).toHaveLength(2);
    const crawled = await call("POST", "/api/v1/crawl", {
      body: { url: `${site?.origin}/page`, max_depth: 0 },
    });
    expect(crawled.status).toBe(200);
    expect(crawled.body.pages).toHaveLength(1);
    const crawlJob = await call("POST", "/api/v1/crawl", {
      body: { url: `${site?.origin}/page`, max_depth: 0, async: true },
    });
    expect(crawlJob.status).toBe(202);
    const crawlPath = `/api/v1/crawl/${crawlJob.body.id}`;
    expect((await call("GET", "/api/v1/crawl/{id}", { path: crawlPath })).status).toBe(200);
    expect([200, 409]).toContain((await call("DELETE", "/api/v1/crawl/{id}", { path: crawlPath })).status);
    expect(
      (await call("POST", "/api/v1/answer", { body: { query: "why?", providers: ["perplexity"] } })).status,
    ).toBe(200);
    expect(
      (await call("POST", "/api/v1/papers", { body: { query: "attention", providers: ["arxiv"] } })).status,
    ).toBe(200);
    expect((await call("GET", "/api/v1/usage")).status).toBe(200);
    expect(
      (await call("POST", "/api/v1/image-search", { body: { query: "documented", providers: ["searxng"] } }))
        .status,
    ).toBe(200);
    const extracted = await call("POST", "/api/v1/extract", {
      body: {
        urls: [`${site?.origin}/page`],
        schema: { type: "object", properties: { title: { type: "string" } } },
        estimate: true,
      },
    });
    expect(extracted.status).toBe(200);
    const similar = await call("POST", "/api/v1/similar", { body: { url: `${site?.origin}/page` } });
    expect(similar).toMatchObject({ status: 200, body: { method: "search" } });
    fake.setScenario("brave", {
      results: [{ title: "A page", url: `${site?.origin}/page`, snippet: "Documented." }],
    });
    const job = await call("POST", "/api/v1/research", {
      body: { question: "documented responses", providers: ["brave"], max_queries: 1, max_pages: 1 },
    });
    expect(job.status).toBe(202);
    const path = `/api/v1/research/${job.body.id}`;
    expect((await call("GET", "/api/v1/research/{id}", { path })).status).toBe(200);
    // Cancelled while it runs, or a conflict when it already ended: both documented.
    expect([200, 409]).toContain((await call("DELETE", "/api/v1/research/{id}", { path })).status);
    await expect
      .poll(async () => (await expectDocumented("GET", "/api/v1/research/{id}", { path })).body.status)
      .toMatch(/succeeded|cancelled/);
    fake.resetScenarios();
  });

  it("webhooks", async () => {
    const created = await call("POST", "/api/v1/webhooks", {
      body: { url: `${site?.origin}/hooks`, events: ["crawl.completed"] },
    });
    expect(created.status).toBe(201);
    expect((await call("GET", "/api/v1/webhooks")).status).toBe(200);
    const path = (suffix: string) => `/api/v1/webhooks/${created.body.id}${suffix}`;
    expect((await call("POST", "/api/v1/webhooks/{id}/test", { path: path("/test") })).status).toBe(202);
    expect(
      (await call("GET", "/api/v1/webhooks/{id}/deliveries", { path: path("/deliveries") })).status,
    ).toBe(200);
    expect((await call("DELETE", "/api/v1/webhooks/{id}", { path: path("") })).status).toBe(200);
  });

  it("workspace settings", async () => {
    expect((await call("GET", "/api/v1/settings")).body.default_search_mode).toBe("auto");
    const changed = await call("PATCH", "/api/v1/settings", { body: { default_search_mode: "fanout" } });
    expect(changed.body.default_search_mode).toBe("fanout");
  });

  it("budgets, keys, lenses and tokens", async () => {
    const budget = await call("PUT", "/api/v1/budgets", {
      body: { provider: "brave", metric: "requests", period: "month", limit: 100, soft: 50, anchorDay: 5 },
    });
    expect(budget.status).toBe(200);
    // The workspace's default spend cap and this one.
    expect((await call("GET", "/api/v1/budgets")).body.budgets).toHaveLength(2);
    expect(
      (await call("DELETE", "/api/v1/budgets", { path: `/api/v1/budgets?id=${budget.body.id}` })).status,
    ).toBe(200);
    expect(
      (await call("PUT", "/api/v1/keys", { body: { provider: "exa", key: "exa-secret-0000" } })).status,
    ).toBe(200);
    expect((await call("GET", "/api/v1/keys")).body.keys).toHaveLength(1);
    expect((await call("DELETE", "/api/v1/keys", { path: "/api/v1/keys?provider=exa" })).status).toBe(200);
    const lens = { name: "wiki", domains: ["wikipedia.org"], time_range: "year" };
    expect((await call("PUT", "/api/v1/lenses", { body: lens })).status).toBe(200);
    expect((await call("GET", "/api/v1/lenses")).status).toBe(200);
    expect((await call("DELETE", "/api/v1/lenses", { path: "/api/v1/lenses?name=wiki" })).status).toBe(200);
    const created = await call("POST", "/api/v1/tokens", {
      body: { name: "ci", scopes: ["search"], profile: { defaults: { web_search: { max_results: 5 } } } },
    });
    expect(created.status).toBe(201);
    expect((await call("GET", "/api/v1/tokens")).body.tokens).toHaveLength(2);
    const path = `/api/v1/tokens/${created.body.id}`;
    const profiled = await call("PATCH", "/api/v1/tokens/{id}", {
      path,
      body: { profile: { tools: ["web_search"] } },
    });
    expect(profiled.body.profile).toEqual({ tools: ["web_search"] });
    expect(
      (await call("DELETE", "/api/v1/tokens", { path: `/api/v1/tokens?id=${created.body.id}` })).status,
    ).toBe(200);
  });

  it("traces, usage history and providers", async () => {
    const { flushPendingWrites } = await import("@/lib/pipeline/platform");
    await flushPendingWrites();
    const traces = await call("GET", "/api/v1/traces", { path: "/api/v1/traces?limit=5" });
    const [first] = traces.body.traces as Array<{ id: string }>;
    expect(first).toBeDefined();
    expect((await call("GET", "/api/v1/traces/{id}", { path: `/api/v1/traces/${first?.id}` })).status).toBe(
      200,
    );
    expect(
      (await call("GET", "/api/v1/usage/history", { path: "/api/v1/usage/history?days=3" })).status,
    ).toBe(200);
    expect((await call("GET", "/api/v1/providers")).status).toBe(200);
    const audit = await call("GET", "/api/v1/audit", { path: "/api/v1/audit?limit=5" });
    expect(audit.body.entries).toEqual(
      expect.arrayContaining([expect.objectContaining({ action: "token.create" })]),
    );
  });

  it("the compatibility endpoints, health, readiness and the document itself", async () => {
    expect(
      (await call("GET", "/api/researcher", { path: "/api/researcher?query=compat&max_results=2" })).status,
    ).toBe(200);
    expect(
      (await call("POST", "/api/researcher", { body: { query: "compat", max_results: 2 } })).status,
    ).toBe(200);
    expect((await call("POST", "/api/search", { body: { query: "open webui", count: 3 } })).status).toBe(200);
    expect((await call("GET", "/api/health", { token: null })).status).toBe(200);
    expect((await call("GET", "/api/ready", { token: null })).status).toBe(200);
    expect((await call("GET", "/api/openapi.json", { token: null })).status).toBe(200);
  });

  it("every operation without a token: its documented 401", async () => {
    for (const [template, methods] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        if (!operation.responses["401"]) continue;
        const path = template.replace("{id}", "00000000-0000-4000-8000-000000000000");
        const { status } = await expectDocumented(method.toUpperCase() as RouteMethod, template, {
          path,
          token: null,
          body: method === "get" || method === "delete" ? undefined : {},
        });
        expect({ at: `${method} ${template}`, status }).toEqual({ at: `${method} ${template}`, status: 401 });
      }
    }
  });

  it("left no documented operation out, but MCP's event stream", () => {
    const documented = Object.entries(document.paths).flatMap(([template, methods]) =>
      Object.keys(methods).map((method) => `${method} ${template}`),
    );
    expect(documented.filter((operation) => !exercised.has(operation))).toEqual(["post /api/mcp"]);
  });
});
