/**
 * Connection profiles (#31) through the real route handlers on an embedded database, providers faked at the
 * HTTP level: a profile is refused at save time when it names tools outside the token's scopes, unknown tools
 * or defaults the tool's schema refuses; a saved one narrows what both MCP revisions list and allow, on both
 * URL forms, as `?tools=` does (never widening); its defaults fill what a call leaves out, over MCP and REST,
 * and lose to explicit arguments; prompts are listed only with their tools; an edit applies at once.
 */
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernTransport,
} from "@modelcontextprotocol/client";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { initializeRequest } from "@/tests/e2e/support/mcp";
import { type FakeProviders, startFakeProviders } from "@/tests/fakes/provider-server";
import { appFetch, serveRequest } from "@/tests/support/app-routes";
import { fakeProviderEnv } from "@/tests/support/provider-env";
import { inProcessApp, newToken, operatorWorkspace, routeRequest } from "@/tests/support/route-handlers";

const ORIGIN = "http://localhost:4331";
const app = inProcessApp("profiles");
let fake: FakeProviders;
let admin = "";

const RESULTS = Array.from({ length: 8 }, (_, i) => ({
  title: `Otter fact ${i + 1}`,
  url: `https://otters.test/fact-${i + 1}`,
  snippet: `Otters, fact number ${i + 1}.`,
}));

interface TokenBody {
  id: string;
  token: string;
  profile: unknown;
}

const rest = (path: string, init: { method?: string; body?: unknown; token?: string } = {}) =>
  serveRequest(routeRequest(`${ORIGIN}${path}`, { token: admin, ...init }));

async function createToken(body: Record<string, unknown>): Promise<TokenBody> {
  const response = await rest("/api/v1/tokens", { method: "POST", body });
  expect(response.status).toBe(201);
  return (await response.json()) as TokenBody;
}

/** The URL forms: the Bearer header, or the token in the path. */
type UrlForm = "header" | "path";
const mcpUrl = (token: string, form: UrlForm, query = "") =>
  form === "header" ? `${ORIGIN}/api/mcp${query}` : `${ORIGIN}/api/mcp/t/${token}${query}`;
const headersFor = (token: string, form: UrlForm): Record<string, string> =>
  form === "header" ? { authorization: `Bearer ${token}` } : {};

async function legacyClient(token: string, form: UrlForm = "header", query = "") {
  const client = new Client({ name: "legacy", version: "1" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(mcpUrl(token, form, query)), {
      fetch: appFetch,
      requestInit: { headers: headersFor(token, form) },
    }),
  );
  return client;
}

async function modernClient(token: string, form: UrlForm = "header", query = "") {
  const client = new ModernClient(
    { name: "modern", version: "1" },
    { versionNegotiation: { mode: { pin: "2026-07-28" } } },
  );
  await client.connect(
    new ModernTransport(new URL(mcpUrl(token, form, query)), {
      fetch: appFetch,
      requestInit: { headers: headersFor(token, form) },
    }),
  );
  return client;
}

type AnyClient = Client | ModernClient;
const CLIENTS = { "2025": legacyClient, "2026-07-28": modernClient } as const;
const toolNames = async (client: AnyClient) => (await client.listTools()).tools.map((tool) => tool.name);
const resultCount = (result: object) =>
  (result as { structuredContent: { results: unknown[] } }).structuredContent.results.length;

beforeAll(async () => {
  fake = await startFakeProviders();
  fake.setScenario("brave", { results: RESULTS });
  await app.start({ AUTH_URL: ORIGIN, ...fakeProviderEnv(fake.url), BRAVE_API_KEY: "operator-brave" });
  admin = await newToken(await operatorWorkspace("profiles"), {
    name: "admin",
    scopes: ["admin", "mcp", "search", "fetch", "answer", "papers"],
  });
});
afterAll(async () => {
  await app.stop();
  await fake.close();
});

describe("saving a profile", () => {
  it("refuses tools outside the token's scopes, naming them and the scope each needs", async () => {
    const response = await rest("/api/v1/tokens", {
      method: "POST",
      body: {
        name: "narrow",
        scopes: ["mcp", "search"],
        profile: { tools: ["web_search", "fetch", "answer"] },
      },
    });
    expect(response.status).toBe(400);
    const { error } = await response.json();
    expect(error.code).toBe("invalid_input");
    expect(error.message).toContain("fetch (needs the 'fetch' scope)");
    expect(error.message).toContain("answer (needs the 'answer' scope)");
    expect(error.message).not.toContain("web_search (");
  });

  it("refuses unknown tools and an empty list, quoting at most ten names", async () => {
    const many = Array.from({ length: 30 }, (_, i) => `nope_${i}`);
    const unknown = await rest("/api/v1/tokens", {
      method: "POST",
      body: { name: "typo", profile: { tools: ["web_serach", ...many] } },
    });
    expect(unknown.status).toBe(400);
    const { error } = await unknown.json();
    expect(error.message).toMatch(/unknown tools: 'web_serach'/);
    expect(error.message).not.toContain("nope_20");
    const empty = await rest("/api/v1/tokens", {
      method: "POST",
      body: { name: "none", profile: { tools: [] } },
    });
    expect(empty.status).toBe(400);
  });

  it("refuses at save time every default the tool's schema would refuse", async () => {
    const response = await rest("/api/v1/tokens", {
      method: "POST",
      body: {
        name: "bad defaults",
        profile: {
          defaults: {
            web_search: { max_results: "ten", query: "otters", estimate: true, colour: "blue", mode: "loud" },
            fetch: { format: "pdf" },
            similar_pages: { max_results: 3 },
          },
        },
      },
    });
    expect(response.status).toBe(400);
    const { error } = await response.json();
    for (const problem of [
      "web_search.max_results:",
      "web_search.query: cannot have a default",
      "web_search.estimate: cannot have a default",
      "web_search.colour: not an argument of web_search",
      "web_search.mode:",
      "fetch.format:",
      "'similar_pages': not a tool",
    ]) {
      expect(error.message).toContain(problem);
    }
    expect(error.details.problems).toHaveLength(7);
  });

  it("refuses defaults for a tool the profile leaves out, and a token without admin saves none", async () => {
    const leftOut = await rest("/api/v1/tokens", {
      method: "POST",
      body: { name: "x", profile: { tools: ["fetch"], defaults: { web_search: { max_results: 3 } } } },
    });
    expect(leftOut.status).toBe(400);
    expect((await leftOut.json()).error.message).toContain("web_search: not a tool this profile lists");
    const plain = await createToken({ name: "plain", scopes: ["mcp", "search"] });
    const refused = await rest(`/api/v1/tokens/${plain.id}`, {
      method: "PATCH",
      token: plain.token,
      body: { profile: { tools: ["web_search"] } },
    });
    expect(refused.status).toBe(403);
  });

  it("keeps a valid profile, lists it, replaces and clears it (PATCH)", async () => {
    const created = await createToken({
      name: "profiled",
      profile: { tools: ["web_search", "fetch"], defaults: { web_search: { max_results: 3, region: "de" } } },
    });
    expect(created.profile).toEqual({
      tools: ["web_search", "fetch"],
      defaults: { web_search: { max_results: 3, region: "de" } },
    });
    const listed = (await (await rest("/api/v1/tokens")).json()).tokens.find(
      (token: { id: string }) => token.id === created.id,
    );
    expect(listed.profile).toEqual(created.profile);

    const patched = await rest(`/api/v1/tokens/${created.id}`, {
      method: "PATCH",
      body: { profile: { tools: ["fetch"] } },
    });
    expect(patched.status).toBe(200);
    expect(await patched.json()).toEqual({ id: created.id, profile: { tools: ["fetch"] } });
    const cleared = await rest(`/api/v1/tokens/${created.id}`, { method: "PATCH", body: { profile: null } });
    expect((await cleared.json()).profile).toBeNull();
    const badPatch = await rest(`/api/v1/tokens/${created.id}`, {
      method: "PATCH",
      body: { profile: { defaults: { fetch: { max_chars: "many" } } } },
    });
    expect(badPatch.status).toBe(400);
  });
});

describe.each(["2025", "2026-07-28"] as const)("MCP %s", (revision) => {
  const connect = CLIENTS[revision];

  it.each(["header", "path"] as const)("a one-tool profile lists one tool (%s URL)", async (form) => {
    const { token } = await createToken({ name: `one ${revision} ${form}`, profile: { tools: ["fetch"] } });
    const client = await connect(token, form);
    expect(await toolNames(client)).toEqual(["fetch"]);
    await client.close();
  });

  it.each(["header", "path"] as const)(
    "?tools= narrows to those tools and never widens (%s URL)",
    async (form) => {
      const { token } = await createToken({
        name: `narrowed ${revision} ${form}`,
        scopes: ["mcp", "search", "fetch"],
        profile: { tools: ["web_search", "fetch", "budget_status"] },
      });
      const narrowed = await connect(token, form, "?tools=web_search");
      expect(await toolNames(narrowed)).toEqual(["web_search"]);
      await narrowed.close();
      // answer is outside the scopes, crawl outside the profile: neither is listed.
      const wider = await connect(token, form, "?tools=fetch,crawl,answer&tools=budget_status");
      expect(await toolNames(wider)).toEqual(["fetch", "budget_status"]);
      await wider.close();
    },
  );

  it("a call outside the profile is refused with 403, one inside answers", async () => {
    const { token } = await createToken({ name: `refused ${revision}`, profile: { tools: ["web_search"] } });
    const client = await connect(token);
    await expect(client.callTool({ name: "fetch", arguments: { url: "https://a.test/" } })).rejects.toThrow(
      /403|profile/,
    );
    const inside = await client.callTool({
      name: "web_search",
      arguments: { query: "otters", providers: ["brave"] },
    });
    expect(inside.isError).toBeFalsy();
    await client.close();
    const narrowed = await connect(token, "header", "?tools=budget_status");
    await expect(
      narrowed.callTool({ name: "web_search", arguments: { query: "otters", providers: ["brave"] } }),
    ).rejects.toThrow(/403|profile/);
    await narrowed.close();
  });

  it("defaults fill what a call leaves out, explicit arguments win, and the schema shows them", async () => {
    const { token } = await createToken({
      name: `defaults ${revision}`,
      profile: { defaults: { web_search: { max_results: 2, providers: ["brave"], no_cache: true } } },
    });
    const client = await connect(token);
    const search = (await client.listTools()).tools.find((tool) => tool.name === "web_search");
    expect(search?.inputSchema.properties?.max_results).toMatchObject({ default: 2 });
    const defaulted = await client.callTool({ name: "web_search", arguments: { query: "otters" } });
    expect(resultCount(defaulted)).toBe(2);
    // The schema's own default (10) equals no profile default: an explicit 10 still wins over the profile's 2.
    const explicit = await client.callTool({
      name: "web_search",
      arguments: { query: "otters", max_results: 10 },
    });
    expect(resultCount(explicit)).toBe(8);
    await client.close();
  });

  it("lists prompts only where the connection has every tool they use", async () => {
    const prompts = async (tools: string[]) => {
      const { token } = await createToken({ name: `prompts ${revision} ${tools}`, profile: { tools } });
      const client = await connect(token);
      const listed = client.getServerCapabilities()?.prompts
        ? (await client.listPrompts()).prompts.map((prompt) => prompt.name)
        : [];
      return { client, listed };
    };
    const both = await prompts(["web_search", "fetch"]);
    expect(both.listed.sort()).toEqual(["compare_sources", "read_and_summarize", "research_question"]);
    const got = await both.client.getPrompt({
      name: "research_question",
      arguments: { question: "Do otters hold hands?" },
    });
    expect(JSON.stringify(got.messages)).toContain("Do otters hold hands?");
    await both.client.close();
    const fetchOnly = await prompts(["fetch"]);
    expect(fetchOnly.listed).toEqual(["read_and_summarize"]);
    await fetchOnly.client.close();
    const searchOnly = await prompts(["web_search"]);
    expect(searchOnly.listed).toEqual([]);
    await searchOnly.client.close();
  });
});

describe("?tools= and edits", () => {
  it("answers 400 naming unknown tools on every request, initialize included", async () => {
    const { token } = await createToken({ name: "typo url" });
    const response = await serveRequest(
      routeRequest(`${ORIGIN}/api/mcp?tools=web_search,web_serach`, {
        method: "POST",
        token,
        body: initializeRequest("2025-06-18"),
        headers: { accept: "application/json, text/event-stream" },
      }),
    );
    expect(response.status).toBe(400);
    expect((await response.json()).error.message).toContain("'web_serach'");
    await expect(legacyClient(token, "path", "?tools=")).rejects.toThrow();
  });

  it("applies a profile edit on the next request, though the token's verdict was cached", async () => {
    const created = await createToken({ name: "edited" });
    const before = await legacyClient(created.token);
    expect(await toolNames(before)).toContain("answer");
    await before.close();
    await rest(`/api/v1/tokens/${created.id}`, { method: "PATCH", body: { profile: { tools: ["answer"] } } });
    const after = await legacyClient(created.token);
    expect(await toolNames(after)).toEqual(["answer"]);
    await after.close();
  });
});

describe("REST", () => {
  it("applies the defaults under explicit arguments, and refuses a tool outside the profile as a scope is", async () => {
    const { token } = await createToken({
      name: "rest defaults",
      profile: { tools: ["web_search"], defaults: { web_search: { max_results: 3, providers: ["brave"] } } },
    });
    const search = (body: unknown) => rest("/api/v1/search", { method: "POST", token, body });
    expect((await (await search({ query: "otters" })).json()).results).toHaveLength(3);
    expect((await (await search({ query: "otters", max_results: 5 })).json()).results).toHaveLength(5);
    const estimate = await (await search({ query: "otters", estimate: true })).json();
    expect(estimate.estimate.providers).toEqual(["brave"]);
    const fetched = await rest("/api/v1/fetch", { method: "POST", token, body: { url: "https://a.test/" } });
    expect(fetched.status).toBe(403);
    expect((await fetched.json()).error.message).toContain("profile does not include the 'fetch' tool");
  });

  it("binds the compatibility endpoints too: a profile without web_search is refused on /api/researcher and /api/search", async () => {
    const { token } = await createToken({
      name: "fetch only",
      scopes: ["search", "fetch"],
      profile: { tools: ["fetch"] },
    });
    const researcher = await serveRequest(
      new Request(`${ORIGIN}/api/researcher?query=otters&api_key=${token}`, { method: "GET" }),
    );
    expect(researcher.status).toBe(403);
    expect((await researcher.json()).error.message).toContain(
      "profile does not include the 'web_search' tool",
    );
    const openWebUi = await rest("/api/search", {
      method: "POST",
      token,
      body: { query: "otters", count: 2 },
    });
    expect(openWebUi.status).toBe(403);
    const allowed = await createToken({
      name: "search only",
      scopes: ["search"],
      profile: { tools: ["web_search"] },
    });
    const answered = await rest("/api/search", {
      method: "POST",
      token: allowed.token,
      body: { query: "otters", count: "2" },
    });
    expect(answered.status).toBe(200);
    expect(await answered.json()).toHaveLength(2);
  });
});
