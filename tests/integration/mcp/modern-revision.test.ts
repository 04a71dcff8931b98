/**
 * MCP revision 2026-07-28 on /api/mcp (#17), through the real route handlers on an embedded database with
 * providers faked at the HTTP level: the official v2 client pinned to the revision discovers the server,
 * lists the same tools as a 2025 client with the same token, searches with progress, reads the providers
 * resource and is refused a tool outside its scopes with the step-up challenge; raw requests show that the
 * routing between the eras follows the `_meta` envelope, and that tasks are advertised to the one revision that
 * has them (2025-11-25), each revision checked with the official client speaking it.
 */
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernTransport,
} from "@modelcontextprotocol/client";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeProviders, startFakeProviders } from "@/tests/fakes/provider-server";
import { appFetch, serveRequest } from "@/tests/support/app-routes";
import { fakeProviderEnv } from "@/tests/support/provider-env";
import { inProcessApp, newToken, operatorWorkspace, routeRequest } from "@/tests/support/route-handlers";

const ORIGIN = "http://localhost:4319";
const MCP_URL = `${ORIGIN}/api/mcp`;
const MODERN = "2026-07-28";
const app = inProcessApp("modern-revision");
let fake: FakeProviders;
let token = "";

const authorization = () => ({ authorization: `Bearer ${token}` });

async function modernClient(): Promise<ModernClient> {
  const client = new ModernClient(
    { name: "modern", version: "1" },
    { versionNegotiation: { mode: { pin: MODERN } } },
  );
  await client.connect(
    new ModernTransport(new URL(MCP_URL), { fetch: appFetch, requestInit: { headers: authorization() } }),
  );
  return client;
}

/** The v2 client speaking a 2025 revision through the initialize handshake (its legacy mode). */
async function earlierClient(revision: string): Promise<ModernClient> {
  const client = new ModernClient(
    { name: "earlier", version: "1" },
    { supportedProtocolVersions: [revision] },
  );
  await client.connect(
    new ModernTransport(new URL(MCP_URL), { fetch: appFetch, requestInit: { headers: authorization() } }),
  );
  return client;
}

async function legacyClient(): Promise<Client> {
  const client = new Client({ name: "legacy", version: "1" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(MCP_URL), {
      fetch: appFetch,
      requestInit: { headers: authorization() },
    }),
  );
  return client;
}

const postMcp = (body: unknown, headers: Record<string, string> = {}) =>
  serveRequest(
    routeRequest(MCP_URL, {
      method: "POST",
      token,
      body,
      headers: { accept: "application/json, text/event-stream", ...headers },
    }),
  );

/** A JSON-RPC response, whether it came as JSON or as the one event of an SSE stream. */
async function rpcOf(
  response: Response,
): Promise<{ result?: Record<string, unknown>; error?: { code: number } }> {
  const text = await response.text();
  const data = text.startsWith("{") ? text : (text.match(/^data: (.*)$/m)?.[1] ?? "{}");
  return JSON.parse(data);
}

beforeAll(async () => {
  fake = await startFakeProviders();
  await app.start({ AUTH_URL: ORIGIN, ...fakeProviderEnv(fake.url), BRAVE_API_KEY: "operator-brave" });
  token = await newToken(await operatorWorkspace("modern-revision"), {
    name: "modern",
    scopes: ["mcp", "search"],
  });
});
afterAll(async () => {
  await app.stop();
  await fake.close();
});

describe("a 2026-07-28 client", () => {
  it("discovers the server and lists the same tools as a 2025 client with the same token", async () => {
    const modern = await modernClient();
    expect(modern.getProtocolEra()).toBe("modern");
    expect(modern.getNegotiatedProtocolVersion()).toBe(MODERN);
    expect(modern.getServerVersion()?.name).toBe("searchmux");
    expect(modern.getInstructions()).toMatch(/search gateway/);
    const legacy = await legacyClient();
    expect(legacy.getServerCapabilities()?.tasks).toBeDefined();

    const modernTools = (await modern.listTools()).tools;
    const legacyTools = (await legacy.listTools()).tools;
    expect(modernTools.map((tool) => tool.name).sort()).toEqual(legacyTools.map((tool) => tool.name).sort());
    expect(modernTools.map((tool) => tool.name)).toEqual(expect.arrayContaining(["web_search", "research"]));
    expect(modernTools.map((tool) => tool.name)).not.toContain("fetch");
    const search = modernTools.find((tool) => tool.name === "web_search");
    // The same schema, in the dialect each revision defaults to (2020-12 now, draft-07 before).
    const { $schema, ...inputSchema } = (search?.inputSchema ?? {}) as Record<string, unknown>;
    expect($schema).toBe("https://json-schema.org/draft/2020-12/schema");
    expect(inputSchema).toEqual({
      ...legacyTools.find((tool) => tool.name === "web_search")?.inputSchema,
      $schema: undefined,
    });
    expect(search?.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: true });
    // No tasks in the revision's core: research is a plain call there.
    expect(modernTools.find((tool) => tool.name === "research")?.execution?.taskSupport).toBeUndefined();
    await Promise.all([modern.close(), legacy.close()]);
  });

  it("searches, with each provider reported as progress, and reads the providers resource", async () => {
    const client = await modernClient();
    const progress: string[] = [];
    const result = await client.callTool(
      { name: "web_search", arguments: { query: "otters", providers: ["brave"] } },
      { onprogress: ({ message }) => progress.push(message ?? "") },
    );
    expect(result.isError).toBeFalsy();
    expect(JSON.stringify(result.structuredContent)).toContain("https://example.com/result-1");
    expect(progress).toEqual([expect.stringMatching(/^brave: ok in \d+ ms$/)]);

    const invalid = await client.callTool({ name: "web_search", arguments: { query: "" } });
    expect(invalid.isError).toBe(true);

    const resource = await client.readResource({ uri: "searchmux://providers" });
    const status = JSON.parse(String((resource.contents[0] as { text: string }).text));
    const brave = status.providers.find((p: { provider: string }) => p.provider === "brave");
    expect(brave).toMatchObject({ available: true, key_source: "operator" });
    await client.close();
  });

  it("is refused a tool outside the token's scopes with HTTP 403 and the step-up challenge", async () => {
    const client = await modernClient();
    await expect(client.callTool({ name: "fetch", arguments: { url: "https://a.test/" } })).rejects.toThrow(
      'Insufficient scope: required "mcp search fetch"',
    );
    await client.close();
  });
});

describe("tasks, in the revisions that have them", () => {
  const researchTool = (tools: Array<{ name: string; execution?: { taskSupport?: string } }>) =>
    tools.find((tool) => tool.name === "research");

  it.each(["2025-03-26", "2025-06-18"])(
    "%s: no tasks capability, research a plain call",
    async (revision) => {
      const client = await earlierClient(revision);
      expect(client.getNegotiatedProtocolVersion()).toBe(revision);
      expect(client.getServerCapabilities()?.tasks).toBeUndefined();
      const research = researchTool((await client.listTools()).tools);
      expect(research).toBeDefined();
      // The v1 SDK lists every plain tool as `forbidden` for tasks.
      expect(research?.execution?.taskSupport ?? "forbidden").toBe("forbidden");
      await client.close();
      // Nor does a tasks request of that revision find the method.
      const listed = await rpcOf(
        await postMcp({ jsonrpc: "2.0", id: 9, method: "tasks/list" }, { "mcp-protocol-version": revision }),
      );
      expect(listed.error?.code).toBe(-32601);
    },
  );

  it("2025-11-25: the tasks capability, research a task tool", async () => {
    const client = await legacyClient();
    expect(client.getServerCapabilities()?.tasks).toMatchObject({ list: {}, cancel: {} });
    expect(researchTool((await client.listTools()).tools)?.execution).toEqual({ taskSupport: "optional" });
    await client.close();
  });

  it("2026-07-28: no tasks capability", async () => {
    const client = await modernClient();
    expect(client.getServerCapabilities()?.tasks).toBeUndefined();
    expect(researchTool((await client.listTools()).tools)?.execution?.taskSupport).toBeUndefined();
    await client.close();
  });
});

describe("routing between the eras", () => {
  const envelope = (version: string) => ({
    "io.modelcontextprotocol/protocolVersion": version,
    "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
    "io.modelcontextprotocol/clientCapabilities": {},
  });

  it("answers a request carrying the envelope on the 2026-07-28 path, without any handshake", async () => {
    const response = await postMcp(
      { jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: envelope(MODERN) } },
      { "mcp-protocol-version": MODERN, "mcp-method": "tools/list" },
    );
    expect(response.status).toBe(200);
    const { result } = await rpcOf(response);
    const tools = (result?.tools ?? []) as Array<{ name: string }>;
    expect(tools.map((tool) => tool.name)).toContain("web_search");
  });

  it("refuses a revision it does not serve, and a modern header without the envelope", async () => {
    const unknown = await rpcOf(
      await postMcp(
        { jsonrpc: "2.0", id: 2, method: "tools/list", params: { _meta: envelope("2099-01-01") } },
        { "mcp-protocol-version": "2099-01-01", "mcp-method": "tools/list" },
      ),
    );
    expect(unknown.error).toBeDefined();
    const bare = await rpcOf(
      await postMcp(
        { jsonrpc: "2.0", id: 3, method: "tools/list" },
        { "mcp-protocol-version": MODERN, "mcp-method": "tools/list" },
      ),
    );
    expect(bare.error?.code).toBe(-32602);
  });

  it("still serves the 2025 handshake on the v1 server, tasks included", async () => {
    const response = await postMcp({
      jsonrpc: "2.0",
      id: 4,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    });
    expect(response.status).toBe(200);
    const { result } = await rpcOf(response);
    expect(result?.protocolVersion).toBe("2025-11-25");
    expect(result?.capabilities).toMatchObject({ tasks: { requests: { tools: { call: {} } } } });
  });
});
