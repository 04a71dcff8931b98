/**
 * Step-up (#17): a token without a tool's scope, through the real route handlers on an embedded database.
 * MCP keeps the tool unlisted for it, and a tools/call naming it (alone or in a batch) answers HTTP 403
 * with an insufficient_scope challenge naming the token's scopes plus the missing one and the resource
 * metadata, before any of the message runs; REST answers the same refusal with the same error and scope.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appFetch, serveRequest } from "@/tests/support/app-routes";
import { inProcessApp, newToken, operatorWorkspace, routeRequest } from "@/tests/support/route-handlers";

const ORIGIN = "http://localhost:4318";
const MCP_URL = `${ORIGIN}/api/mcp`;
/** The step-up challenge's parameters: the error, and the token's scopes plus the one the call needs. */
const expectStepUp = (response: Response) => {
  const challenge = response.headers.get("www-authenticate") ?? "";
  expect(challenge).toMatch(/^Bearer /);
  expect(challenge).toContain('error="insufficient_scope"');
  expect(challenge).toContain('scope="mcp search fetch"');
  return challenge;
};
const app = inProcessApp("scope-challenge");
let token = "";

const toolCall = (id: number, name: string, args: Record<string, unknown> = {}) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: args },
});

const postMcp = (body: unknown) =>
  serveRequest(
    routeRequest(MCP_URL, {
      method: "POST",
      token,
      body,
      headers: { accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" },
    }),
  );

beforeAll(async () => {
  await app.start({ AUTH_URL: ORIGIN });
  token = await newToken(await operatorWorkspace("scope-challenge"), {
    name: "no fetch",
    scopes: ["mcp", "search"],
  });
});
afterAll(() => app.stop());

describe("MCP", () => {
  it("keeps the tool unlisted, and a call to it gets 403 with the challenge to step up", async () => {
    const client = new Client({ name: "step-up", version: "1" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(MCP_URL), {
        fetch: appFetch,
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    const listed = (await client.listTools()).tools.map((tool) => tool.name);
    expect(listed).toContain("web_search");
    expect(listed).not.toContain("fetch");
    // The SDK's transport shows the HTTP status as the error's code.
    await expect(
      client.callTool({ name: "fetch", arguments: { url: "https://a.test/" } }),
    ).rejects.toMatchObject({ code: 403, message: /'fetch' scope/ });
    await client.close();

    const response = await postMcp(toolCall(7, "fetch", { url: "https://a.test/" }));
    expect(response.status).toBe(403);
    expect(expectStepUp(response)).toContain(
      `resource_metadata="${ORIGIN}/.well-known/oauth-protected-resource/api/mcp"`,
    );
    expect(await response.json()).toEqual({
      jsonrpc: "2.0",
      id: 7,
      error: { code: -32000, message: "this token lacks the 'fetch' scope" },
    });
  });

  it("refuses a batch holding such a call as a whole, before its other calls run", async () => {
    const response = await postMcp([
      toolCall(1, "budget_status"),
      toolCall(2, "crawl", { url: "https://a.test/" }),
    ]);
    expect(response.status).toBe(403);
    expectStepUp(response);
    expect(await response.json()).toMatchObject({ id: 2, error: { message: /'fetch' scope/ } });
  });

  it("leaves calls within the token's scopes and unknown tools to the server", async () => {
    const allowed = await postMcp(toolCall(3, "budget_status"));
    expect(allowed.status).toBe(200);
    expect(await allowed.text()).toMatch(/"structuredContent":\{"budgets"/);
    const unknown = await postMcp(toolCall(4, "no_such_tool"));
    expect(unknown.status).toBe(200);
    expect(await unknown.text()).toMatch(/no_such_tool/);
  });
});

describe("REST", () => {
  it("answers a tool route outside the token's scopes with 403 and the same challenge", async () => {
    const response = await serveRequest(
      routeRequest(`${ORIGIN}/api/v1/fetch`, { method: "POST", token, body: { url: "https://a.test/" } }),
    );
    expect(response.status).toBe(403);
    expectStepUp(response);
    expect(await response.json()).toMatchObject({ error: { code: "forbidden", message: /'fetch' scope/ } });
  });
});
