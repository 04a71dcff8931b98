/**
 * REST contract of the research-depth features: /api/v1/lenses (GET any token, PUT/DELETE admin) and the
 * new /api/v1/search fields (lens, grounded_snippets, include_content), through the real route handlers,
 * token wrapper and verbs, an embedded database, the fake providers and a fake OpenAI-compatible model.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { RouteMethod } from "@/lib/api/route-methods";
import { FETCH_WIRES } from "@/tests/fakes/fetch-wires";
import { type FakeProviders, startFakeProviders } from "@/tests/fakes/provider-server";
import { SNIPPET_MODEL, SNIPPET_MODEL_WIRES } from "@/tests/fakes/snippet-model-wire";
import { serveRequest } from "@/tests/support/app-routes";
import { type ArticleSite, startArticleSite } from "@/tests/support/article-site";
import { fakeProviderEnv } from "@/tests/support/provider-env";
import { inProcessApp, newToken, operatorWorkspace, routeRequest } from "@/tests/support/route-handlers";

const app = inProcessApp("lenses-rest");
let fake: FakeProviders;
let site: ArticleSite | undefined;
let origin: string;

async function call(
  route: string,
  method: RouteMethod,
  { token, body, query = "" }: { token?: string; body?: unknown; query?: string } = {},
) {
  const request = routeRequest(`/api/v1/${route}${query}`, {
    method,
    token,
    body: body === undefined ? undefined : JSON.stringify(body),
    headers: { "x-forwarded-for": "192.0.2.11" },
  });
  const response = await serveRequest(request);
  return { status: response.status, body: await response.json() };
}

let admin: string;
let searchOnly: string;
let otherAdmin: string;

beforeAll(async () => {
  fake = await startFakeProviders({ ...FETCH_WIRES, ...SNIPPET_MODEL_WIRES });
  site = await startArticleSite(
    "Local page",
    "Ripgrep respects gitignore rules and searches recursively by default.",
  );
  origin = site.origin;
  await app.start({
    ...fakeProviderEnv(fake.url),
    SEARCHMUX_FETCH_ALLOWLIST: "127.0.0.1",
    SEARCHMUX_LLM_BASE_URL: fake.baseUrlFor(SNIPPET_MODEL),
    SEARCHMUX_LLM_MODEL: "snippet-writer",
    SEARCHMUX_RATE_LIMIT_RPM: "1000",
  });
  const { SCOPES } = await import("@/lib/pipeline/context");
  const ctx = await operatorWorkspace("lenses");
  const other = await operatorWorkspace("other");
  admin = await newToken(ctx, { name: "admin", scopes: [...SCOPES] });
  searchOnly = await newToken(ctx, { name: "search-only", scopes: ["search"] });
  otherAdmin = await newToken(other, { name: "b", scopes: [...SCOPES] });
});

afterAll(async () => {
  await app.stop();
  site?.close();
  await fake?.close();
});

beforeEach(() => {
  fake.resetScenarios();
  fake.clearRequests();
});

describe("/api/v1/lenses", () => {
  it("lists built-in lenses to any token, and lets only admins write", async () => {
    const listed = await call("lenses", "GET", { token: searchOnly });
    expect(listed.status).toBe(200);
    expect(listed.body.lenses.map((l: { name: string }) => l.name)).toEqual([
      "academic",
      "code",
      "docs",
      "forums",
      "news",
    ]);
    expect(Object.keys(listed.body.lenses[0]).sort()).toEqual(
      ["defaults", "description", "domains", "name", "source"].sort(),
    );
    expect(listed.body.lenses.find((l: { name: string }) => l.name === "news").defaults).toEqual({
      time_range: "month",
    });
    const lens = { name: "team-wiki", domains: ["wiki.example.com"], description: "Team wiki" };
    expect(await call("lenses", "PUT", { token: searchOnly, body: lens })).toMatchObject({
      status: 403,
      body: { error: { code: "forbidden" } },
    });
    expect(await call("lenses", "DELETE", { token: searchOnly, query: "?name=team-wiki" })).toMatchObject({
      status: 403,
    });
  });

  it("creates, shows and deletes a lens; another workspace's lens is 404; bad input is 400", async () => {
    const lens = { name: "team-wiki", domains: ["wiki.example.com"], time_range: "year" };
    const put = await call("lenses", "PUT", { token: admin, body: lens });
    expect(put).toEqual({
      status: 200,
      body: {
        name: "team-wiki",
        description: "",
        domains: ["wiki.example.com"],
        defaults: { time_range: "year" },
        source: "tenant",
      },
    });
    const listed = await call("lenses", "GET", { token: admin });
    expect(listed.body.lenses.map((l: { name: string }) => l.name)).toContain("team-wiki");
    const foreign = await call("lenses", "GET", { token: otherAdmin });
    expect(foreign.body.lenses.map((l: { name: string }) => l.name)).not.toContain("team-wiki");
    expect(await call("lenses", "DELETE", { token: otherAdmin, query: "?name=team-wiki" })).toMatchObject({
      status: 404,
      body: { error: { code: "not_found" } },
    });
    for (const body of [
      { name: "x", domains: [] },
      { name: "x", domains: ["a b"] },
      { name: "x", domains: ["a.com"], extra: 1 },
    ]) {
      expect(await call("lenses", "PUT", { token: admin, body })).toMatchObject({
        status: 400,
        body: { error: { code: "invalid_input" } },
      });
    }
    expect(await call("lenses", "DELETE", { token: admin, query: "?name=team-wiki" })).toEqual({
      status: 200,
      body: { name: "team-wiki", deleted: true },
    });
    expect((await call("lenses", "DELETE", { token: admin, query: "?name=team-wiki" })).status).toBe(404);
  });
});

describe("POST /api/v1/search research fields", () => {
  const found = () =>
    fake.setScenario("duckduckgo", {
      results: ["/one", "/two"].map((p) => ({
        title: `Result ${p}`,
        url: `${origin}${p}`,
        snippet: `About ${p}.`,
      })),
    });

  it("answers 400 with the available lenses for an unknown lens", async () => {
    const unknown = await call("search", "POST", {
      token: searchOnly,
      body: { query: "x", lens: "nope", providers: ["duckduckgo"] },
    });
    expect(unknown).toMatchObject({
      status: 400,
      body: {
        error: {
          code: "invalid_input",
          details: { available: ["academic", "code", "docs", "forums", "news"] },
        },
      },
    });
  });

  it("returns grounded snippets and page contents in the documented shape", async () => {
    found();
    const response = await call("search", "POST", {
      token: searchOnly,
      body: {
        query: "ripgrep",
        providers: ["duckduckgo"],
        grounded_snippets: true,
        grounded_results: 1,
        include_content: true,
        content_results: 1,
        max_chars: 2_000,
      },
    });
    expect(response.status).toBe(200);
    const [first, second] = response.body.results;
    expect(Object.keys(first).sort()).toEqual(
      ["content", "score", "snippet", "snippet_source", "sources", "title", "url"].sort(),
    );
    expect(first).toMatchObject({
      snippet_source: "grounded",
      snippet: expect.stringMatching(/^Grounded: /),
      content: expect.stringMatching(/^# Local page/),
    });
    expect(Object.keys(second).sort()).toEqual(
      ["score", "snippet", "snippet_source", "sources", "title", "url"].sort(),
    );
    expect(second.snippet_source).toBe("aggregated");
  });

  it("answers 503 when grounded snippets are asked for and no model is configured", async () => {
    found();
    const model = process.env.SEARCHMUX_LLM_MODEL;
    process.env.SEARCHMUX_LLM_MODEL = "";
    try {
      const response = await call("search", "POST", {
        token: searchOnly,
        body: { query: "ripgrep", providers: ["duckduckgo"], grounded_snippets: true },
      });
      expect(response).toMatchObject({ status: 503, body: { error: { code: "no_provider_configured" } } });
    } finally {
      process.env.SEARCHMUX_LLM_MODEL = model;
    }
  });
});
