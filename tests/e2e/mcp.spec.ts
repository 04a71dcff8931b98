/**
 * MCP end to end against `next build && next start` (zero configuration): the official SDK client over
 * Streamable HTTP plus raw JSON-RPC POSTs. The keyless providers a fresh workspace calls answer 503 from
 * the fake provider server (internet or not), so the tool calls that need them assert the failure paths
 * a model sees, and that the fake received those calls; budget_status and the resource succeed.
 */
import { request as httpRequest } from "node:http";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { LATEST_PROTOCOL_VERSION } from "@modelcontextprotocol/sdk/types.js";
import { BASE_URL, seedTenant } from "./support/e2e-server";
import { fakeRequests } from "./support/fake-providers";
import {
  connectClient,
  connectModernClient,
  initializeRequest,
  MCP_URL,
  postRaw,
  toolCall,
} from "./support/mcp";
import { expect, test } from "./support/test";

let tokens: Record<string, string> = {};
let exhaustedToken = "";
let xffCounter = 0;
/** A fresh client address per unauthenticated request, so the failed-auth IP block never interferes. */
const freshIp = () => ({ "x-forwarded-for": `203.0.113.${++xffCounter}` });
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const latest = { "mcp-protocol-version": LATEST_PROTOCOL_VERSION };
/** What a token with the `search` scope alone lists, by name. */
const SEARCH_SCOPE_TOOLS = ["budget_status", "image_search", "research", "similar", "web_search"];

test.beforeAll(async () => {
  const [main, exhausted] = await Promise.all([
    seedTenant({
      name: "MCP e2e",
      tokens: [
        { name: "full" },
        { name: "concurrent" },
        { name: "search-only", scopes: ["search", "mcp"] },
        { name: "no-mcp", scopes: ["search", "fetch", "answer", "papers"] },
        { name: "revoked", revoked: true },
        { name: "expired", expiresInMs: 1_000 },
      ],
    }),
    seedTenant({
      name: "MCP e2e exhausted",
      tokens: [{ name: "full" }],
      budgets: [{ provider: "*", metric: "requests", period: "day", limit: 0 }],
    }),
  ]);
  tokens = main.tokens;
  exhaustedToken = exhausted.tokens.full ?? "";
});

function token(name: string): string {
  const value = tokens[name];
  if (!value) throw new Error(`no seeded token '${name}'`);
  return value;
}

const clients: Client[] = [];
async function client(name = "full"): Promise<Client> {
  const connected = await connectClient(MCP_URL, token(name));
  clients.push(connected);
  return connected;
}
test.afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
});

function textOf(result: Awaited<ReturnType<Client["callTool"]>>): string {
  const content = result.content as Array<{ type: string; text?: string }>;
  return content.map((part) => part.text ?? "").join("\n");
}

/** Expects each wire of the fake provider server to have been called: the failure came from there. */
async function expectFakeCalled(wires: readonly string[]): Promise<void> {
  for (const wire of wires) expect((await fakeRequests(wire)).length, wire).toBeGreaterThan(0);
}

test.describe("session setup", () => {
  test("the SDK client initializes, negotiating the latest protocol version", async () => {
    const mcp = await client();
    expect(mcp.getServerVersion()).toMatchObject({ name: "searchmux" });
    expect(mcp.getServerCapabilities()).toMatchObject({ tools: {}, resources: {} });
    expect(mcp.getInstructions()).toContain("web_search");
    const reply = await postRaw(initializeRequest(LATEST_PROTOCOL_VERSION), bearer(token("full")));
    expect(reply.status).toBe(200);
    expect(reply.headers.get("mcp-session-id")).toBeNull();
    expect(reply.headers.get("ratelimit")).toMatch(/^limit=\d+, remaining=\d+/);
    expect(reply.messages[0]?.result?.protocolVersion).toBe(LATEST_PROTOCOL_VERSION);
  });

  for (const version of ["2025-03-26", "2025-06-18"]) {
    test(`a client speaking ${version} gets that version and working tool calls`, async () => {
      const init = await postRaw(initializeRequest(version), bearer(token("full")));
      expect(init.messages[0]?.result?.protocolVersion).toBe(version);
      const call = await postRaw(toolCall("budget_status", {}, 7), {
        ...bearer(token("full")),
        "mcp-protocol-version": version,
      });
      expect(call.status).toBe(200);
      expect(call.messages).toHaveLength(1);
      expect(call.messages[0]).toMatchObject({ jsonrpc: "2.0", id: 7, result: { structuredContent: {} } });
      expect(call.messages[0]?.result?.isError).toBeUndefined();
    });
  }

  test("a 2026-07-28 client discovers the server without a handshake and calls tools", async () => {
    const modern = await connectModernClient(MCP_URL, token("full"));
    expect(modern.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    expect(modern.getServerVersion()).toMatchObject({ name: "searchmux" });
    const { tools } = await modern.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(["web_search", "research"]));
    const status = await modern.callTool({ name: "budget_status", arguments: {} });
    expect(status.isError).toBeFalsy();
    expect(status.structuredContent).toMatchObject({ budgets: expect.any(Array) });
    const search = await modern.callTool({
      name: "web_search",
      arguments: { query: "searchmux e2e modern", timeout_ms: 5_000 },
    });
    expect(search.isError).toBe(true);
    expect(JSON.stringify(search.content)).toContain("all_providers_failed");
    await modern.close();
  });

  test("an unsupported protocol version header is refused", async () => {
    const reply = await postRaw(toolCall("budget_status", {}, 1), {
      ...bearer(token("full")),
      "mcp-protocol-version": "1999-01-01",
    });
    expect(reply.status).toBe(400);
  });
});

test.describe("tools/list", () => {
  test("lists the ten tools with annotations and strict input schemas, without output schemas", async () => {
    const { tools } = await (await client()).listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      "answer",
      "budget_status",
      "crawl",
      "extract",
      "fetch",
      "image_search",
      "paper_search",
      "research",
      "similar",
      "web_search",
    ]);
    for (const tool of tools) {
      expect(tool.description?.length).toBeGreaterThan(90);
      expect(tool.annotations).toMatchObject({
        readOnlyHint: true,
        openWorldHint: tool.name !== "budget_status",
      });
      expect(tool.inputSchema).toMatchObject({ type: "object", additionalProperties: false });
      // The response shapes are in the OpenAPI document: in a tool list they were most of its bytes.
      expect(tool.outputSchema).toBeUndefined();
    }
    const byName = new Map(tools.map((t) => [t.name, t]));
    // query or queries (the verb refuses both or neither): neither is required in the schema.
    expect(byName.get("web_search")?.inputSchema).not.toHaveProperty("required");
    expect(byName.get("web_search")?.inputSchema).toMatchObject({
      properties: {
        query: { type: "string", minLength: 1, maxLength: 2000 },
        queries: { type: "array", maxItems: 5 },
        mode: { enum: ["fanout", "auto", "budget", "single"] },
        include_domains: { maxItems: 100 },
      },
    });
    // url or urls (the verb refuses both or neither): neither is required in the schema.
    expect(byName.get("fetch")?.inputSchema).toMatchObject({
      properties: { url: { type: "string" }, urls: { type: "array", maxItems: 20 }, offset: { minimum: 0 } },
    });
    expect(byName.get("crawl")?.inputSchema).toMatchObject({
      required: ["url"],
      properties: { mode: { enum: ["pages", "map"] } },
    });
    expect(byName.get("paper_search")?.inputSchema).toMatchObject({
      properties: { year_from: { minimum: 1000, maximum: 3000 } },
    });
    expect(byName.get("web_search")?.inputSchema).toMatchObject({
      properties: { estimate: { type: "boolean" } },
    });
  });

  test("a token lists only the tools of its scopes, and calling another gets the step-up 403", async () => {
    const mcp = await client("search-only");
    const { tools } = await mcp.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(SEARCH_SCOPE_TOOLS);
    // The SDK's transport shows the HTTP status as the error's code.
    await expect(
      mcp.callTool({ name: "fetch", arguments: { url: "https://example.com/" } }),
    ).rejects.toMatchObject({ code: 403, message: /'fetch' scope/ });
  });
});

test.describe("tool calls", () => {
  test("budget_status returns budgets as text and structured content", async () => {
    const result = await (await client()).callTool({ name: "budget_status", arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toEqual({
      // A new workspace's monthly spend cap across all providers.
      budgets: [expect.objectContaining({ provider: "*", metric: "usd", period: "month", limit: 10 })],
      operator_quotas: [],
      providers: expect.any(Array),
      alerts: [],
      // What auto mode learned from this workspace's full fan-outs (other tests' searches count too).
      search_contributions: { observations: expect.any(Number), providers: expect.any(Array) },
    });
    expect(textOf(result)).toContain("Budgets:");
  });

  test("web_search names every provider's failure when all of them fail", async () => {
    const mcp = await client();
    await mcp.listTools(); // caches output schemas, so the client validates what comes back
    const result = await mcp.callTool({
      name: "web_search",
      arguments: { query: "searchmux e2e", timeout_ms: 5_000 },
    });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    const text = textOf(result);
    expect(text).toMatch(
      /^web_search failed \(all_providers_failed\): every provider failed \(.*duckduckgo: \w+/,
    );
    expect(text).toContain("Retry later");
    await expectFakeCalled(["duckduckgo", "wikipedia"]);
  });

  test("an exhausted budget is reported with its reset time", async () => {
    const mcp = await connectClient(MCP_URL, exhaustedToken);
    clients.push(mcp);
    const search = await mcp.callTool({ name: "web_search", arguments: { query: "anything" } });
    expect(search.isError).toBe(true);
    expect(textOf(search)).toMatch(
      /budget_exhausted.*all providers: requests per day limit reached \(resets \d{4}-\d{2}-\d{2}T/,
    );
    const status = await mcp.callTool({ name: "budget_status", arguments: {} });
    expect(status.structuredContent).toMatchObject({
      budgets: [
        {
          name: "all providers · requests · day",
          provider: "*",
          metric: "requests",
          period: "day",
          anchor_day: null,
          limit: 0,
          remaining: 0,
        },
        { name: "all providers · usd · month", limit: 10 },
      ],
    });
  });

  test("fetch refuses private addresses and explains unreachable pages", async () => {
    const mcp = await client();
    const blocked = await mcp.callTool({ name: "fetch", arguments: { url: "http://127.0.0.1/admin" } });
    expect(blocked.isError).toBe(true);
    expect(textOf(blocked)).toMatch(/^fetch failed \(invalid_input\): .*127\.0\.0\.1.*Fix the arguments/);
    // A reserved name (RFC 6761) never resolves, so the direct fetch fails anywhere; Jina's reader fails at the fake.
    const unreachable = await mcp.callTool({
      name: "fetch",
      arguments: { url: "https://unreachable.invalid/", timeout_ms: 5_000 },
    });
    expect(unreachable.isError).toBe(true);
    expect(textOf(unreachable)).toMatch(/^fetch failed \(all_providers_failed\): every provider failed/);
    await expectFakeCalled(["fetch-jina"]);
  });

  test("answer says that no answer provider is set up", async () => {
    const result = await (await client()).callTool({
      name: "answer",
      arguments: { query: "Why is the sky blue?" },
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/no_provider_configured.*no answer provider is available.*provider key/);
  });

  test("paper_search names each paper source's failure", async () => {
    const result = await (await client()).callTool({
      name: "paper_search",
      arguments: { query: "retrieval augmented generation", timeout_ms: 5_000 },
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/every provider failed \(.*arxiv: \w+/);
    await expectFakeCalled(["arxiv", "esearch.fcgi", "semantic-scholar", "openalex"]);
  });

  test("invalid arguments are tool errors the model can act on", async () => {
    const mcp = await client();
    const empty = await mcp.callTool({ name: "web_search", arguments: { query: "" } });
    expect(empty.isError).toBe(true);
    expect(textOf(empty)).toContain("query");
    const unknownField = await mcp.callTool({ name: "web_search", arguments: { query: "x", bogus: 1 } });
    expect(unknownField.isError).toBe(true);
    expect(textOf(unknownField)).toContain("bogus");
    const huge = await mcp.callTool({
      name: "web_search",
      arguments: { query: "x", include_domains: Array.from({ length: 10_000 }, (_, i) => `d${i}.test`) },
    });
    expect(huge.isError).toBe(true);
  });

  test("the provider status resource says what the workspace can use", async () => {
    const mcp = await client();
    const { resources } = await mcp.listResources();
    expect(resources.map((r) => r.uri)).toContain("searchmux://providers");
    const read = await mcp.readResource({ uri: "searchmux://providers" });
    const [content] = read.contents;
    expect(content?.mimeType).toBe("application/json");
    const status = JSON.parse(String(content && "text" in content ? content.text : "")) as {
      providers: Array<{ provider: string; available: boolean; key_source: string; tools: string[] }>;
    };
    const find = (id: string) => status.providers.find((p) => p.provider === id);
    expect(find("duckduckgo")).toMatchObject({
      available: true,
      key_source: "not_needed",
      tools: ["web_search"],
    });
    expect(find("tavily")).toMatchObject({
      available: false,
      key_source: "missing",
      unavailable_reason: "no_key",
    });
  });
});

test.describe("authentication", () => {
  /** RFC 9728's challenge: where the metadata is, the scopes to ask for, and why a presented token failed. */
  const challenge = (error?: string) =>
    `Bearer realm="searchmux", resource_metadata="${BASE_URL}/.well-known/oauth-protected-resource/api/mcp", scope="mcp search fetch answer papers"${error ? `, error="${error}"` : ""}`;

  for (const [label, headers, error] of [
    ["missing", {}, undefined],
    ["malformed", { authorization: "Bearer smx_not_a_real_token" }, "invalid_token"],
  ] as const) {
    test(`a ${label} token gets 401 with the resource metadata challenge`, async () => {
      const reply = await postRaw(initializeRequest(LATEST_PROTOCOL_VERSION), { ...headers, ...freshIp() });
      expect(reply.status).toBe(401);
      expect(reply.headers.get("www-authenticate")).toBe(challenge(error));
    });
  }

  for (const name of ["revoked", "expired"]) {
    test(`the ${name} token gets 401`, async () => {
      const reply = await postRaw(initializeRequest(LATEST_PROTOCOL_VERSION), {
        ...bearer(token(name)),
        ...freshIp(),
      });
      expect(reply.status).toBe(401);
      expect(reply.headers.get("www-authenticate")).toBe(challenge("invalid_token"));
    });
  }

  test("the SDK client surfaces a 401 without a token", async () => {
    const error = await connectClient(MCP_URL, "smx_wrong").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(String(error)).toMatch(/401|Unauthorized/i);
  });

  test("the resource metadata document describes /api/mcp", async () => {
    const response = await fetch(`${BASE_URL}/api/mcp/oauth-protected-resource`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      resource: `${BASE_URL}/api/mcp`,
      authorization_servers: [BASE_URL],
      bearer_methods_supported: ["header"],
    });
  });

  test("a token without the mcp scope gets 403", async () => {
    const reply = await postRaw(initializeRequest(LATEST_PROTOCOL_VERSION), bearer(token("no-mcp")));
    expect(reply.status).toBe(403);
    expect(reply.text).toContain("'mcp' scope");
  });

  test("the URL form takes the token from the path", async () => {
    const mcp = await connectClient(`${MCP_URL}/t/${token("search-only")}`);
    clients.push(mcp);
    const { tools } = await mcp.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(SEARCH_SCOPE_TOOLS);
    const wrong = await postRaw(
      initializeRequest(LATEST_PROTOCOL_VERSION),
      freshIp(),
      `${MCP_URL}/t/smx_wrong_token`,
    );
    expect(wrong.status).toBe(401);
    const noScope = await postRaw(
      initializeRequest(LATEST_PROTOCOL_VERSION),
      {},
      `${MCP_URL}/t/${token("no-mcp")}`,
    );
    expect(noScope.status).toBe(403);
  });
});

/** A POST with a Host header of our choosing (fetch does not let a caller set Host). */
function postWithHost(host: string, body: string, headers: Record<string, string>): Promise<number> {
  const url = new URL(MCP_URL);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: "POST",
        headers: {
          host,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "content-length": Buffer.byteLength(body),
          ...headers,
        },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

test.describe("transport rules", () => {
  test("a foreign Origin or Host is refused before anything runs; same origin passes", async () => {
    const init = initializeRequest(LATEST_PROTOCOL_VERSION);
    const foreign = await postRaw(init, { ...bearer(token("full")), origin: "https://evil.test" });
    expect(foreign.status).toBe(403);
    expect(foreign.text).toContain("evil.test");
    const same = await postRaw(init, { ...bearer(token("full")), origin: BASE_URL });
    expect(same.status).toBe(200);
    const foreignHost = await postWithHost("evil.test", JSON.stringify(init), bearer(token("full")));
    expect(foreignHost).toBe(403);
  });

  test("GET and DELETE answer 405 in stateless mode", async () => {
    for (const method of ["GET", "DELETE"]) {
      const response = await fetch(MCP_URL, {
        method,
        headers: { ...bearer(token("full")), accept: "text/event-stream" },
      });
      expect(response.status).toBe(405);
      expect(response.headers.get("allow")).toBe("POST");
    }
  });

  test("a session id is never accepted, whoever's it claims to be", async () => {
    const reply = await postRaw(
      { jsonrpc: "2.0", id: 3, method: "tools/list" },
      { ...bearer(token("full")), ...latest, "mcp-session-id": "session-of-another-tenant" },
    );
    expect(reply.status).toBe(404);
  });

  test("an oversized body gets 413", async () => {
    const body = JSON.stringify(toolCall("web_search", { query: "x".repeat(300 * 1024) }, 1));
    const reply = await postRaw(body, { ...bearer(token("full")), ...latest });
    expect(reply.status).toBe(413);
  });

  test("50 concurrent tool calls each get one complete JSON-RPC envelope with their id", async () => {
    const ids = Array.from({ length: 50 }, (_, i) => 1_000 + i);
    const replies = await Promise.all(
      ids.map((id) =>
        postRaw(
          id % 2 === 0
            ? toolCall("budget_status", {}, id)
            : toolCall("web_search", { query: `concurrent ${id}`, timeout_ms: 5_000 }, id),
          { ...bearer(token("concurrent")), ...latest },
        ),
      ),
    );
    replies.forEach((reply, index) => {
      const id = ids[index];
      expect(reply.status).toBe(200);
      const responses = reply.messages.filter((m) => m.id !== undefined);
      expect(responses).toHaveLength(1);
      expect(responses[0]).toMatchObject({ jsonrpc: "2.0", id, result: { content: expect.any(Array) } });
      expect(Boolean(responses[0]?.result?.isError)).toBe(index % 2 === 1);
    });
  });
});
