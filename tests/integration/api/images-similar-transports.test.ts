/**
 * image_search and similar over the transports, through the real route handlers on an embedded database
 * with providers faked at the HTTP boundary: MCP with the official SDK client (which validates each
 * structuredContent against the listed output schema) and REST with its statuses.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { IMAGE_WIRES, imageWireId } from "@/tests/fakes/image-wires";
import { type FakeProviders, startFakeProviders } from "@/tests/fakes/provider-server";
import { appFetch, serveRequest } from "@/tests/support/app-routes";
import { fakeProviderEnv } from "@/tests/support/provider-env";
import { inProcessApp, newToken, operatorWorkspace, routeRequest } from "@/tests/support/route-handlers";

const ORIGIN = "http://localhost:4319";
const app = inProcessApp("images-similar");
let fake: FakeProviders;
let token = "";
let mcpOnly = "";

const post = async (path: string, body: unknown, bearer = token) => {
  const response = await serveRequest(
    routeRequest(`${ORIGIN}/api/v1/${path}`, { method: "POST", token: bearer, body }),
  );
  return { status: response.status, body: await response.json() };
};

beforeAll(async () => {
  fake = await startFakeProviders(IMAGE_WIRES);
  await app.start({
    ...fakeProviderEnv(fake.url),
    AUTH_URL: ORIGIN,
    BRAVE_BASE_URL: fake.baseUrlFor(imageWireId("brave")),
    BRAVE_API_KEY: "operator-brave-key",
    EXA_BASE_URL: fake.baseUrlFor("similar-exa"),
    EXA_API_KEY: "operator-exa-key",
    SEARCHMUX_RATE_LIMIT_RPM: "1000",
  });
  const ctx = await operatorWorkspace("images-similar");
  token = await newToken(ctx, { name: "all", scopes: ["mcp", "search", "fetch"] });
  mcpOnly = await newToken(ctx, { name: "mcp only", scopes: ["mcp"] });
});
afterAll(async () => {
  await app.stop();
  await fake?.close();
});
beforeEach(() => {
  fake.resetScenarios();
  fake.clearRequests();
});

describe("MCP", () => {
  it("lists both tools and answers them as text and schema-valid structured content", async () => {
    const client = new Client({ name: "images", version: "1" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${ORIGIN}/api/mcp`), {
        fetch: appFetch,
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    const listed = (await client.listTools()).tools;
    for (const name of ["image_search", "similar"]) {
      const tool = listed.find((t) => t.name === name);
      expect(tool?.description?.length, name).toBeLessThanOrEqual(300);
      expect(tool?.inputSchema, name).toMatchObject({ type: "object", additionalProperties: false });
    }

    const images = await client.callTool({ name: "image_search", arguments: { query: "lighthouse" } });
    expect(images.isError).toBeFalsy();
    expect(images.structuredContent).toMatchObject({
      query: "lighthouse",
      results: expect.arrayContaining([
        expect.objectContaining({ image_url: "https://images.example.com/photo-1.jpg", width: 1601 }),
      ]),
    });
    const text = (images.content as Array<{ text?: string }>).map((c) => c.text ?? "").join("\n");
    expect(text).toContain('Images for "lighthouse": 3');
    expect(text).toContain("1. Image 1 (1601×901)\n   https://images.example.com/photo-1.jpg");

    const pages = await client.callTool({
      name: "similar",
      arguments: { url: "https://blog.example.com/lighthouses", max_results: 2 },
    });
    expect(pages.structuredContent).toMatchObject({
      url: "https://blog.example.com/lighthouses",
      method: "exa",
      query: null,
      results: [expect.objectContaining({ url: "https://similar.example.org/page-1" }), expect.anything()],
    });
    expect(fake.requests("similar-exa")[0]?.headers["x-api-key"]).toBe("operator-exa-key");
    await client.close();
  });
});

describe("REST", () => {
  it("POST /api/v1/image-search answers the images, and estimates without calling", async () => {
    const { status, body } = await post("image-search", { query: "harbour", max_results: 2 });
    expect(status).toBe(200);
    expect(body.results).toHaveLength(2);
    expect(body.results[0]).toEqual({
      image_url: "https://images.example.com/photo-1.jpg",
      thumbnail_url: "https://thumbs.example.com/photo-1.jpg",
      title: "Image 1",
      page_url: "https://example.com/gallery/1",
      width: 1601,
      height: 901,
      score: expect.any(Number),
      sources: [{ provider: "brave", rank: 1 }],
    });
    expect(body).toMatchObject({ cache_hit: false, providers_skipped: [], trace_id: expect.any(String) });
    fake.clearRequests();
    const estimate = await post("image-search", { query: "harbour", estimate: true });
    expect(estimate).toEqual({
      status: 200,
      body: { estimate: { providers: ["brave"], max_cost_usd: 0.005 } },
    });
    expect(fake.requests(imageWireId("brave"))).toEqual([]);
  });

  it("answers 400 for bad input and 403 for a token without the search scope, calling nothing", async () => {
    expect((await post("image-search", { query: "" })).status).toBe(400);
    expect((await post("image-search", { query: "x", safesearch: "none" })).status).toBe(400);
    expect((await post("image-search", { query: "x", providers: ["serper"] })).body).toMatchObject({
      error: { code: "invalid_input" },
    });
    expect((await post("similar", { url: "http://192.168.1.1/router" })).body).toMatchObject({
      error: { code: "invalid_input", message: expect.stringMatching(/^url refused: .*private/) },
    });
    expect((await post("similar", { url: "https://a.example/", extra: 1 })).status).toBe(400);
    expect((await post("image-search", { query: "x" }, mcpOnly)).status).toBe(403);
    expect((await post("similar", { url: "https://a.example/" }, mcpOnly)).status).toBe(403);
    expect(fake.requests(imageWireId("brave"))).toEqual([]);
    expect(fake.requests("similar-exa")).toEqual([]);
  });

  it("POST /api/v1/similar says which way it went", async () => {
    const { status, body } = await post("similar", {
      url: "https://blog.example.com/post",
      exclude_source_domain: true,
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({ method: "exa", query: null, url: "https://blog.example.com/post" });
    expect(fake.requests("similar-exa")[0]?.body).toMatchObject({ excludeDomains: ["blog.example.com"] });
  });
});
