/**
 * extract over REST (the tools' dynamic route, its OpenAPI-described body and statuses) and over MCP with the
 * official SDK client (structuredContent is REST's body): the same verb, the same data per URL, its refusals
 * as a 400 and an isError result, and the fetch scope.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildServer } from "@/lib/mcp/build-server";
import { revision2025 } from "@/lib/mcp/revision-2025";
import type { TenantContext } from "@/lib/pipeline/context";
import { FETCH_WIRES, fetchWireId } from "@/tests/fakes/fetch-wires";
import { type FakeProviders, startFakeProviders } from "@/tests/fakes/provider-server";
import { type ResearchSite, startResearchSite } from "@/tests/fakes/research-site";
import { SNIPPET_MODEL, SNIPPET_MODEL_WIRES } from "@/tests/fakes/snippet-model-wire";
import { serveRequest } from "@/tests/support/app-routes";
import { inProcessApp, newToken, operatorWorkspace, routeRequest } from "@/tests/support/route-handlers";

const app = inProcessApp("extract");
const SCHEMA = { type: "object", properties: { design: { type: "integer" } }, required: ["design"] };

describe("extract over REST and MCP", () => {
  let fake: FakeProviders;
  let site: ResearchSite;
  let ctx: TenantContext;
  let token: string;
  let searchOnly: string;

  const rest = async (body: unknown, bearer = token) => {
    const response = await serveRequest(
      routeRequest("/api/v1/extract", { method: "POST", token: bearer, body }),
    );
    return { status: response.status, body: await response.json() };
  };
  const mcp = async (scopes: TenantContext["scopes"] = ctx.scopes) => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await buildServer({ ...ctx, scopes, surface: "mcp" }, revision2025, { tasks: true }).connect(serverSide);
    const client = new Client({ name: "extract-test", version: "1.0.0" });
    await client.connect(clientSide);
    await client.listTools();
    return client;
  };

  beforeAll(async () => {
    fake = await startFakeProviders({ ...FETCH_WIRES, ...SNIPPET_MODEL_WIRES });
    site = await startResearchSite();
    fake.setScenario(SNIPPET_MODEL, {
      payload: { rules: [1, 2].map((n) => ({ contains: `Solar report ${n} <`, reply: `{"design": ${n}}` })) },
    });
    await app.start({
      SEARCHMUX_FETCH_ALLOWLIST: "127.0.0.1",
      JINA_READER_BASE_URL: fake.baseUrlFor(fetchWireId("jina")),
      SEARCHMUX_LLM_BASE_URL: fake.baseUrlFor(SNIPPET_MODEL),
      SEARCHMUX_LLM_MODEL: "extractor",
      SEARCHMUX_RATE_LIMIT_RPM: "1000",
    });
    ctx = await operatorWorkspace("extract");
    token = await newToken(ctx, { name: "agent", scopes: ["fetch"] });
    searchOnly = await newToken(ctx, { name: "search-only", scopes: ["search"] });
  });
  afterAll(async () => {
    await app.stop();
    await site?.close();
    await fake?.close();
  });

  it("answers each URL's data over REST, refuses a bad schema with 400 and a token without fetch with 403", async () => {
    const ok = await rest({ urls: [`${site.origin}/solar/1`], schema: SCHEMA });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({
      results: [{ url: `${site.origin}/solar/1`, data: { design: 1 }, provider: "llm", cache_hit: false }],
      trace_id: expect.any(String),
    });
    const deep = JSON.parse(
      `${'{"type":"object","properties":{"a":'.repeat(8)}{"type":"string"}${"}}".repeat(8)}`,
    );
    const refused = await rest({ urls: [`${site.origin}/solar/1`], schema: deep });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({
      code: "invalid_input",
      message: expect.stringMatching(/12 levels/),
    });
    expect((await rest({ urls: [`${site.origin}/solar/1`], schema: SCHEMA }, searchOnly)).status).toBe(403);
    const estimate = await rest({ urls: [`${site.origin}/solar/1`], schema: SCHEMA, estimate: true });
    expect(estimate.body.estimate.providers).toContain("llm");
  });

  it("answers the same over MCP, structuredContent as REST's body", async () => {
    const client = await mcp();
    const listed = (await client.listTools()).tools.find((tool) => tool.name === "extract");
    expect(listed?.description?.length).toBeLessThanOrEqual(350);
    const result = await client.callTool({
      name: "extract",
      arguments: { urls: [`${site.origin}/solar/2`], schema: SCHEMA },
    });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ results: [{ data: { design: 2 }, provider: "llm" }] });
    const refused = await client.callTool({
      name: "extract",
      arguments: {
        urls: [`${site.origin}/solar/2`],
        schema: { type: "object", properties: { a: { pattern: "a+" } } },
      },
    });
    expect(refused.isError).toBe(true);
    const searchOnlyClient = await mcp(["search", "mcp"]);
    expect((await searchOnlyClient.listTools()).tools.map((tool) => tool.name)).not.toContain("extract");
  });
});
