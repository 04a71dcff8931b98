/**
 * A provider name a tool does not know, in any tool's `providers`, over REST (400) and MCP (a tool error):
 * the answer names the unknown names and lists the tool's valid ids, and nothing is called or queued.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TenantContext } from "@/lib/pipeline/context";
import { answerProviders } from "@/lib/providers/answer";
import { extractProviders } from "@/lib/providers/extract";
import { fetchProviders } from "@/lib/providers/fetch";
import { imageProviders } from "@/lib/providers/images";
import { paperProviders } from "@/lib/providers/papers";
import { searchProviders } from "@/lib/providers/search";
import { type FakeProviders, startFakeProviders } from "@/tests/fakes/provider-server";
import { appFetch, serveRequest } from "@/tests/support/app-routes";
import { fakeProviderEnv } from "@/tests/support/provider-env";
import { inProcessApp, newToken, operatorWorkspace, routeRequest } from "@/tests/support/route-handlers";

const ORIGIN = "http://localhost:4327";
const app = inProcessApp("unknown-providers");
let fake: FakeProviders;
let token = "";
let workspace: TenantContext;

const post = async (path: string, body: unknown) => {
  const response = await serveRequest(
    routeRequest(`${ORIGIN}/api/v1/${path}`, { method: "POST", token, body }),
  );
  return { status: response.status, body: (await response.json()) as { error?: Record<string, unknown> } };
};

const ids = (registry: ReadonlyArray<{ id: string }>) => registry.map((provider) => provider.id).sort();

beforeAll(async () => {
  fake = await startFakeProviders();
  await app.start({ ...fakeProviderEnv(fake.url), AUTH_URL: ORIGIN, SEARCHMUX_RATE_LIMIT_RPM: "1000" });
  workspace = await operatorWorkspace("unknown-providers");
  token = await newToken(workspace, { name: "all", scopes: ["mcp", "search", "fetch", "answer", "papers"] });
});
afterAll(async () => {
  await app.stop();
  await fake?.close();
});

describe("an unknown provider name", () => {
  const TOOLS = [
    { tool: "web_search", path: "search", body: { query: "q" }, valid: ids(searchProviders) },
    { tool: "answer", path: "answer", body: { query: "q" }, valid: ids(answerProviders) },
    { tool: "paper_search", path: "papers", body: { query: "q" }, valid: ids(paperProviders) },
    { tool: "image_search", path: "image-search", body: { query: "q" }, valid: ids(imageProviders) },
    { tool: "research", path: "research", body: { question: "why?" }, valid: ids(searchProviders) },
  ];

  it.each(TOOLS)(
    "is refused by $tool with 400, naming it and every valid id",
    async ({ tool, path, body, valid }) => {
      const refused = await post(path, { ...body, providers: [valid[0], "bravee", "nope"] });
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatchObject({
        code: "invalid_input",
        message: `providers: unknown to ${tool}: bravee, nope; its providers are ${valid.join(", ")}`,
        details: { unknown: ["bravee", "nope"], valid },
      });
    },
  );

  it("is refused by fetch and extract, whose schemas list their providers", async () => {
    const fetchRefusal = await post("fetch", { url: "https://example.com/", providers: ["nope"] });
    expect(fetchRefusal.status).toBe(400);
    expect(fetchRefusal.body.error?.message).toBe(
      `providers[0]: must be one of ${fetchProviders.map((provider) => provider.id).join(", ")}`,
    );
    const schema = { type: "object", properties: { price: { type: "string" } } };
    const extractRefusal = await post("extract", {
      urls: ["https://example.com/"],
      schema,
      providers: ["nope"],
    });
    expect(extractRefusal.status).toBe(400);
    expect(extractRefusal.body.error?.message).toBe(
      `providers[0]: must be one of ${extractProviders.map((provider) => provider.id).join(", ")}`,
    );
  });

  it("calls no provider and queues no job", async () => {
    expect(fake.requests("brave")).toEqual([]);
    const { listResearch } = await import("@/lib/services/research/list-research");
    expect((await listResearch({ ctx: workspace, input: {} })).jobs).toEqual([]);
  });

  it("reaches an MCP client as the tool's error, in the same words", async () => {
    const client = new Client({ name: "unknown-providers", version: "1" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${ORIGIN}/api/mcp`), {
        fetch: appFetch,
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    const result = await client.callTool({
      name: "web_search",
      arguments: { query: "q", providers: ["nope"] },
    });
    expect(result.isError).toBe(true);
    const text = (result.content as Array<{ text?: string }>).map((c) => c.text ?? "").join("\n");
    expect(text).toContain(
      `providers: unknown to web_search: nope; its providers are ${ids(searchProviders).join(", ")}`,
    );
    await client.close();
  });
});
