/**
 * The MCP server in process, on a real (embedded) database with providers faked at the HTTP level: the
 * success paths that e2e cannot reach without internet. The official SDK client lists the tools first,
 * so it validates every structuredContent against the published output schema.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildServer } from "@/lib/mcp/build-server";
import { revision2025 } from "@/lib/mcp/revision-2025";
import { DEFAULT_TOKEN_SCOPES, type Platform, type Scope, type TenantContext } from "@/lib/pipeline/context";
import { MIN_OBSERVATIONS } from "@/lib/pipeline/contribution/auto-plan";
import { kvLearner } from "@/lib/pipeline/contribution/learner";
import { setKey } from "@/lib/services/keys/set-key";
import { webSearch } from "@/lib/services/search/web-search";
import { createTenant } from "@/lib/services/tenants/create-tenant";
import { ANSWER_PREFIX, ANSWER_WIRES } from "@/tests/fakes/answer-wires";
import { PAPER_WIRES } from "@/tests/fakes/paper-wires";
import { type FakeProviders, startFakeProviders } from "@/tests/fakes/provider-server";
import { databaseTargets, type TestDatabase } from "@/tests/support/database";
import { systemCtx, tenantCtx, testPlatform } from "@/tests/support/platform";
import { fakeProviderEnv } from "@/tests/support/provider-env";

const [pglite] = databaseTargets();

describe("the MCP server for one tenant", () => {
  let t: TestDatabase;
  let fake: FakeProviders;
  let site: http.Server;
  let siteOrigin: string;
  let platform: Platform;
  let tenantId: string;
  const clients: Client[] = [];

  async function connect(
    scopes: readonly Scope[] = DEFAULT_TOKEN_SCOPES,
    tenant = tenantId,
  ): Promise<Client> {
    const ctx: TenantContext = { ...tenantCtx(platform, tenant, scopes), surface: "mcp" };
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await buildServer(ctx, revision2025, { tasks: true }).connect(serverSide);
    const client = new Client({ name: "unit", version: "1.0.0" });
    await client.connect(clientSide);
    await client.listTools(); // caches the output schemas the client validates results against
    clients.push(client);
    return client;
  }

  const text = (result: Awaited<ReturnType<Client["callTool"]>>) =>
    (result.content as Array<{ text?: string }>).map((c) => c.text ?? "").join("\n");

  beforeAll(async () => {
    if (!pglite) throw new Error("no database target");
    t = await pglite.create();
    fake = await startFakeProviders({ ...ANSWER_WIRES, ...PAPER_WIRES });
    site = http.createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(
        `<!DOCTYPE html><html><head><title>Release notes</title></head><body><article><h1>Release notes</h1>${"<p>Version 2 makes every query faster and adds paper search across four sources.</p>".repeat(12)}</article></body></html>`,
      );
    });
    await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
    siteOrigin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    platform = testPlatform(t.db, {
      // Never explores: once measured, auto's plan is the same every time.
      learner: kvLearner({ random: () => 0.99 }),
      env: {
        SEARCHMUX_FETCH_ALLOWLIST: "127.0.0.1",
        ...fakeProviderEnv(fake.url),
        BRAVE_API_KEY: "operator-brave",
        PERPLEXITY_BASE_URL: fake.baseUrlFor(ANSWER_PREFIX.perplexity),
      },
    });
    tenantId = (await createTenant({ ctx: systemCtx(platform), input: { name: "mcp" } })).id;
    await setKey({
      ctx: tenantCtx(platform, tenantId),
      input: { provider: "perplexity", key: "pplx-tenant-key" },
    });
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    site?.close();
    await fake?.close();
    await t?.cleanup();
  });

  it("web_search returns fused results as numbered text and schema-valid structured content", async () => {
    const result = await (await connect()).callTool({
      name: "web_search",
      arguments: { query: "rust async runtime", providers: ["duckduckgo", "brave"] },
    });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      query: "rust async runtime",
      results: expect.arrayContaining([expect.objectContaining({ url: expect.stringMatching(/^https?:/) })]),
      providers_failed: [],
      cache_hit: false,
      trace_id: expect.any(String),
    });
    expect(text(result)).toMatch(
      /^Web results for "rust async runtime": \d+ in \d+ ms\n\n1\. .+\n {3}https?:\/\//,
    );
    expect(text(result)).toContain("Providers ok: ");
  });

  it("web_search in auto mode names the providers it left out, as structured content and as text", async () => {
    const workspace = (await createTenant({ ctx: systemCtx(platform), input: { name: "mcp-auto" } })).id;
    const ctx = tenantCtx(platform, workspace);
    await setKey({ ctx, input: { provider: "tavily", key: "tvly-mcp-auto" } });
    for (let i = 0; i < MIN_OBSERVATIONS; i++) await webSearch({ ctx, input: { query: `measure ${i}` } });
    await ctx.usage.flush();
    const client = await connect(DEFAULT_TOKEN_SCOPES, workspace);
    const result = await client.callTool({ name: "web_search", arguments: { query: "left out" } });
    expect(result.isError).toBeFalsy();
    // brave and tavily (paid) answer the same pages as duckduckgo (free), wikipedia its own: one of them
    // agreeing with duckduckgo orders the pages as the full fan-out does, the dearer one adds nothing.
    const { providers_skipped: skipped } = result.structuredContent as {
      providers_skipped: Array<{ provider: string; reason: string }>;
    };
    expect(skipped).toEqual([{ provider: "tavily", reason: "low_contribution" }]);
    expect(text(result)).toContain("\nProviders skipped: tavily (low_contribution)");

    const status = await client.callTool({ name: "budget_status", arguments: {} });
    const { search_contributions: contributions } = status.structuredContent as {
      search_contributions: {
        observations: number;
        providers: Array<{ provider: string; measured: boolean }>;
      };
    };
    expect(contributions.observations).toBe(MIN_OBSERVATIONS);
    expect(contributions.providers).toContainEqual(
      expect.objectContaining({ provider: "brave", measured: true }),
    );
    expect(text(status)).toContain("What each search provider adds");
  });

  it("fetch returns the page as Markdown", async () => {
    const result = await (await connect()).callTool({
      name: "fetch",
      arguments: { url: `${siteOrigin}/notes`, providers: ["direct"] },
    });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      url: `${siteOrigin}/notes`,
      format: "markdown",
      provider: "direct",
      metadata: { truncated: false },
    });
    expect(text(result)).toMatch(/^# Release notes\nSource: http:\/\/127\.0\.0\.1:\d+\/notes/);
    expect(text(result)).toContain("Version 2 makes every query faster");
  });

  it("answer returns each provider's answer with its citations", async () => {
    const result = await (await connect()).callTool({
      name: "answer",
      arguments: { query: "Which async runtime?", providers: ["perplexity"] },
    });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      answers: [expect.objectContaining({ provider: "perplexity", citations: expect.any(Array) })],
      agreement: { answers: 1 },
    });
    expect(text(result)).toMatch(/## perplexity \(.+\)\n\n.+\n\nSources:\n\[1\] .+ — https?:\/\//);
    expect(fake.requests(ANSWER_PREFIX.perplexity)[0]?.headers.authorization).toBe("Bearer pplx-tenant-key");
  });

  it("reports each provider as it finishes to a client that asked for progress", async () => {
    const messages: string[] = [];
    const result = await (await connect()).callTool(
      {
        name: "web_search",
        arguments: { query: "progress per provider", providers: ["brave", "duckduckgo"] },
      },
      undefined,
      { onprogress: (progress) => messages.push(progress.message ?? "") },
    );
    expect(result.isError).toBeFalsy();
    expect(messages.sort()).toEqual([
      expect.stringMatching(/^brave: ok in \d+ ms$/),
      expect.stringMatching(/^duckduckgo: ok in \d+ ms$/),
    ]);
  });

  it("paper_search returns merged papers with authors and identifiers", async () => {
    const result = await (await connect()).callTool({
      name: "paper_search",
      arguments: { query: "attention", providers: ["arxiv", "openalex"] },
    });
    expect(result.isError).toBeFalsy();
    const structured = result.structuredContent as { results: Array<{ authors: string[] }> };
    expect(structured.results.length).toBeGreaterThan(0);
    expect(text(result)).toMatch(
      /^Papers for "attention": \d+ in \d+ ms\n\n1\. .+ \((\d{4}|year unknown)\)\n {3}\S/,
    );
  });

  it("budget_status then shows what the calls used", async () => {
    const result = await (await connect()).callTool({ name: "budget_status", arguments: {} });
    const status = result.structuredContent as { providers: Array<{ provider: string }> };
    expect(status.providers.map((p) => p.provider)).toEqual(expect.arrayContaining(["brave", "perplexity"]));
  });

  it("the providers resource tells whose key each provider uses", async () => {
    const read = await (await connect()).readResource({ uri: "searchmux://providers" });
    const [content] = read.contents;
    const { providers } = JSON.parse(content && "text" in content ? content.text : "{}") as {
      providers: Array<{ provider: string; key_source: string; available: boolean; tools: string[] }>;
    };
    const find = (id: string) => providers.find((p) => p.provider === id);
    expect(find("perplexity")).toMatchObject({ available: true, key_source: "tenant" });
    expect(find("brave")).toMatchObject({ available: true, key_source: "operator" });
    expect(find("brave")?.tools).toContain("web_search");
    expect(find("arxiv")).toMatchObject({ available: true, key_source: "not_needed" });
    expect(find("exa")).toMatchObject({ available: false, key_source: "missing" });
  });

  it("registers only the tools of the token's scopes", async () => {
    const { tools } = await (await connect(["mcp", "papers"])).listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["paper_search", "budget_status"]);
  });
});
