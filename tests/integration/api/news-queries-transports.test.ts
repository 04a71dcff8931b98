/**
 * web_search's topic news, `queries`, `language` and the providers' request `adjustments` over REST (the real
 * route and token wrapper) and MCP (the official SDK client, which validates structuredContent against the
 * published output schema).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { buildServer } from "@/lib/mcp/build-server";
import { revision2025 } from "@/lib/mcp/revision-2025";
import type { TenantContext } from "@/lib/pipeline/context";
import { NEWS_WIRES } from "@/tests/fakes/news-wires";
import { type FakeProviders, startFakeProviders } from "@/tests/fakes/provider-server";
import { serveRequest } from "@/tests/support/app-routes";
import { fakeProviderEnv } from "@/tests/support/provider-env";
import { inProcessApp, newToken, operatorWorkspace, routeRequest } from "@/tests/support/route-handlers";

const app = inProcessApp("news-queries");
let fake: FakeProviders;
let ctx: TenantContext;
let token: string;
const PROVIDERS = ["brave", "duckduckgo", "wikipedia"];

async function search(body: unknown) {
  const response = await serveRequest(routeRequest("/api/v1/search", { method: "POST", token, body }));
  return { status: response.status, body: await response.json() };
}

beforeAll(async () => {
  fake = await startFakeProviders(NEWS_WIRES);
  await app.start({ ...fakeProviderEnv(fake.url), BRAVE_API_KEY: "operator-brave" });
  ctx = await operatorWorkspace("news-queries");
  token = await newToken(ctx, { name: "search", scopes: ["search"] });
});
afterAll(async () => {
  await app.stop();
  await fake?.close();
});
beforeEach(() => {
  fake.resetScenarios();
  fake.clearRequests();
});

describe("POST /api/v1/search", () => {
  it("answers news with published_at and source, naming the providers it skipped", async () => {
    const { status, body } = await search({ query: "rest news", topic: "news", providers: PROVIDERS });
    expect(status).toBe(200);
    expect(body.query).toBe("rest news");
    expect(body.results[0]).toMatchObject({
      url: "https://news.example.com/story-1",
      published_at: "2026-03-01T08:00:00.000Z",
      source: "news.example.com",
    });
    expect(body.providers_skipped).toEqual([
      { provider: "duckduckgo", reason: "no_news_search" },
      { provider: "wikipedia", reason: "no_news_search" },
    ]);
  });

  it("answers queries per query, or merged, and a single query exactly as before", async () => {
    const per = await search({ queries: ["rest one", "rest two"], providers: ["brave"] });
    expect(per.status).toBe(200);
    expect(per.body).not.toHaveProperty("query");
    expect(per.body.queries).toEqual(["rest one", "rest two"]);
    expect(per.body.results).toEqual([]);
    expect(per.body.results_by_query.map((q: { query: string }) => q.query)).toEqual([
      "rest one",
      "rest two",
    ]);

    const merged = await search({ queries: ["rest one", "rest two"], merge: true, providers: ["brave"] });
    expect(merged.body).not.toHaveProperty("results_by_query");
    expect(merged.body.results.length).toBeGreaterThan(0);
    // Both queries' answers are kept from the call before: nothing is asked again.
    expect(merged.body.cache_hit).toBe(true);
    expect(fake.requests("brave")).toHaveLength(2);

    const single = await search({ query: "rest one", providers: ["brave"] });
    expect(single.body).not.toHaveProperty("queries");
    expect(single.body).not.toHaveProperty("results_by_query");
  });

  it("says what was changed in a provider's request: a region Brave does not take is sent as ALL", async () => {
    const { status, body } = await search({ query: "rest region", region: "sg", providers: ["brave"] });
    expect(status).toBe(200);
    expect(fake.requests("brave")[0]?.query.country).toBe("ALL");
    expect(body.adjustments).toEqual([
      {
        provider: "brave",
        note: 'region "sg" is not one of the countries Brave takes: sent as ALL (results from any country)',
      },
    ]);
    const plain = await search({ query: "rest region plain", providers: ["brave"] });
    expect(plain.body.adjustments).toEqual([]);
  });

  it("refuses query with queries, six queries and an unknown language with 400 naming the field", async () => {
    for (const [body, field] of [
      [{ query: "a", queries: ["b"] }, "query"],
      [{ queries: ["1", "2", "3", "4", "5", "6"] }, "queries"],
      [{ query: "a", language: "xx" }, "language"],
    ] as const) {
      const refused = await search(body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(JSON.stringify(refused.body)).toContain(field);
    }
    expect(fake.requests("brave")).toEqual([]);
  });
});

describe("MCP web_search", () => {
  let client: Client;
  beforeAll(async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await buildServer({ ...ctx, scopes: ["search"], surface: "mcp" }, revision2025, { tasks: true }).connect(
      serverSide,
    );
    client = new Client({ name: "news", version: "1.0.0" });
    await client.connect(clientSide);
    const { tools } = await client.listTools(); // the client validates results against these schemas
    const schema = tools.find((t) => t.name === "web_search")?.inputSchema.properties ?? {};
    expect(Object.keys(schema)).toEqual(expect.arrayContaining(["topic", "language", "queries", "merge"]));
  });
  afterAll(async () => {
    await client?.close();
  });

  const text = (result: Awaited<ReturnType<Client["callTool"]>>) =>
    (result.content as Array<{ text?: string }>).map((c) => c.text ?? "").join("\n");

  it("searches queries per query, with the news publisher and date in the text", async () => {
    const result = await client.callTool({
      name: "web_search",
      arguments: { queries: ["mcp one", "mcp two"], topic: "news", language: "de", providers: ["brave"] },
    });
    expect(result.isError).toBeFalsy();
    const structured = result.structuredContent as { results_by_query: Array<{ query: string }> };
    expect(structured.results_by_query.map((q) => q.query)).toEqual(["mcp one", "mcp two"]);
    expect(text(result)).toContain("## mcp two");
    expect(text(result)).toContain("Published: news.example.com, 2026-03-01T08:00:00.000Z");
    expect(fake.requests("brave").map((r) => [r.path, r.query.search_lang])).toEqual([
      ["/res/v1/news/search", "de"],
      ["/res/v1/news/search", "de"],
    ]);
  });

  it("carries the adjustments in structured content and says them in the text", async () => {
    const result = await client.callTool({
      name: "web_search",
      arguments: { query: "mcp region", region: "vn", providers: ["brave"] },
    });
    expect(result.isError).toBeFalsy();
    const note =
      'region "vn" is not one of the countries Brave takes: sent as ALL (results from any country)';
    expect((result.structuredContent as { adjustments: unknown }).adjustments).toEqual([
      { provider: "brave", note },
    ]);
    expect(text(result)).toContain(`Adjusted for brave: ${note}`);
  });

  it("answers an input error for query and queries together", async () => {
    const result = await client.callTool({ name: "web_search", arguments: { query: "a", queries: ["b"] } });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain("give either query or queries");
  });
});
