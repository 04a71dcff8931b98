/**
 * Cost before a call: `estimate: true` on every tool of the table answers {estimate: {providers,
 * max_cost_usd}} from the call's own selection and the providers' prices, and calls, charges, reserves
 * and traces nothing. Over MCP too (the client validates the structured content against the published
 * schema), including research, whose estimate starts no job.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { researchJobs, reservations, traces, usageCounters } from "@/lib/db/schema";
import { buildServer } from "@/lib/mcp/build-server";
import { revision2025 } from "@/lib/mcp/revision-2025";
import type { TenantContext } from "@/lib/pipeline/context";
import { keyId, pauseKey, pauseKeyForQuota } from "@/lib/pipeline/rate-limit/provider-pause";
import { setKey } from "@/lib/services/keys/set-key";
import { tools } from "@/lib/tools/table";
import { callTool, type Tool } from "@/lib/tools/tool";
import { ANSWER_PREFIX, ANSWER_WIRES } from "@/tests/fakes/answer-wires";
import { databaseTargets } from "@/tests/support/database";
import { fakeBaseUrls, serviceSuite } from "@/tests/support/service-suite";

const [pglite] = databaseTargets();

describe("estimate: true", () => {
  if (!pglite) throw new Error("no database target");
  // Search: Brave ($0.005) and Perplexity ($0.005) with the operator's keys, Tavily ($0.008) with tenant A's,
  // DuckDuckGo and Wikipedia free. Fetch: the direct fetcher (free), Jina's reader ($0.0002) and, with tenant
  // A's key, Tavily's extract ($0.0016). Perplexity answers ($0.005 a request plus its tokens: at most the
  // 65-character system prompt and the query in, 4,096 out, at $1 per million); the operator's model (free)
  // plans and grounds.
  const s = serviceSuite(pglite, {
    wires: ANSWER_WIRES,
    env: (fake) => ({
      BRAVE_API_KEY: "operator-brave",
      PERPLEXITY_API_KEY: "operator-pplx",
      PERPLEXITY_BASE_URL: fake.baseUrlFor(ANSWER_PREFIX.perplexity),
      SEARCHMUX_LLM_BASE_URL: fake.baseUrlFor(ANSWER_PREFIX.perplexity),
      SEARCHMUX_LLM_MODEL: "operator-model",
      ...fakeBaseUrls(fake, ["duckduckgo", "wikipedia", "tavily", "brave"]),
    }),
  });
  const clients: Client[] = [];
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
  });

  const estimate = async (tool: Tool, input: Record<string, unknown>, ctx: TenantContext = s.a) =>
    (await callTool(tool, ctx, { ...input, estimate: true }, {})).response;
  const ledger = async (ctx: TenantContext) => {
    await ctx.usage.flush();
    await ctx.traces.flush();
    return ctx.db.withTenant(ctx.tenantId, async (tx) => ({
      counters: (await tx.select().from(usageCounters)).length,
      reservations: (await tx.select().from(reservations)).length,
      traces: (await tx.select().from(traces)).length,
      jobs: (await tx.select().from(researchJobs)).length,
    }));
  };
  const nothingSent = () =>
    expect(s.fake.requests("brave").length + s.fake.requests("tavily").length).toBe(0);

  it("web_search: the providers the search would ask and their prices, calling and recording nothing", async () => {
    await setKey({ ctx: s.a, input: { provider: "tavily", key: "tvly-estimate-a" } });
    const before = await ledger(s.a);
    const all = await estimate(tools.web_search, { query: "q" });
    expect(all).toEqual({
      estimate: {
        providers: expect.arrayContaining(["brave", "tavily", "perplexity", "duckduckgo", "wikipedia"]),
        max_cost_usd: 0.018,
      },
    });
    expect(
      await estimate(tools.web_search, { query: "q", providers: ["tavily", "duckduckgo"], mode: "budget" }),
    ).toEqual({ estimate: { providers: ["duckduckgo", "tavily"], max_cost_usd: 0.008 } });
    // Tenant B has no Tavily key: its search would ask Brave, Perplexity and the free ones.
    expect(await estimate(tools.web_search, { query: "q" }, s.b)).toMatchObject({
      estimate: { max_cost_usd: 0.01 },
    });
    nothingSent();
    expect(await ledger(s.a)).toEqual(before);
  });

  it("web_search: leaves out a key paused for its rate limit or quota, and adds what include_content could read", async () => {
    await pauseKey(s.platform.kv, keyId("brave", "operator-brave"), 30, Date.now());
    try {
      expect(await estimate(tools.web_search, { query: "q", providers: ["brave", "duckduckgo"] })).toEqual({
        estimate: { providers: ["duckduckgo"], max_cost_usd: 0 },
      });
    } finally {
      await s.platform.kv.del(`smx:pause:${keyId("brave", "operator-brave")}`);
    }
    // A key the provider refused for its quota is left out alike.
    await pauseKeyForQuota(s.platform.kv, keyId("brave", "operator-brave"), 3600, Date.now());
    try {
      expect(await estimate(tools.web_search, { query: "q", providers: ["brave", "duckduckgo"] })).toEqual({
        estimate: { providers: ["duckduckgo"], max_cost_usd: 0 },
      });
    } finally {
      await s.platform.kv.del(`smx:quota:${keyId("brave", "operator-brave")}`);
    }
    // Three pages, each through every fetch step ($0.0018 together).
    expect(
      await estimate(tools.web_search, { query: "q", providers: ["brave"], include_content: true }),
    ).toEqual({ estimate: { providers: ["brave", "direct", "jina", "tavily"], max_cost_usd: 0.0104 } });
  });

  it("fetch: every step of each URL's waterfall", async () => {
    expect(await estimate(tools.fetch, { url: "https://example.com/a" })).toEqual({
      estimate: { providers: ["direct", "jina", "tavily"], max_cost_usd: 0.0018 },
    });
    // GitHub's route (free) comes first for its URL.
    expect(
      await estimate(tools.fetch, {
        urls: ["https://example.com/a", "https://github.com/org/repo", "https://example.com/b"],
      }),
    ).toEqual({ estimate: { providers: ["direct", "jina", "tavily", "github"], max_cost_usd: 0.0054 } });
    expect(await estimate(tools.fetch, { url: "https://example.com/a", providers: ["direct"] })).toEqual({
      estimate: { providers: ["direct"], max_cost_usd: 0 },
    });
  });

  it("answer: each answer provider, and the search that grounds the operator's model", async () => {
    expect(await estimate(tools.answer, { query: "q", providers: ["perplexity"] })).toEqual({
      estimate: { providers: ["perplexity"], max_cost_usd: 0.009162 },
    });
    const grounded = await estimate(tools.answer, { query: "q", providers: ["perplexity", "llm"] });
    expect(grounded).toEqual({
      estimate: {
        providers: expect.arrayContaining(["perplexity", "llm", "brave", "tavily", "duckduckgo"]),
        max_cost_usd: 0.027162,
      },
    });
    expect(s.fake.requests(ANSWER_PREFIX.perplexity)).toHaveLength(0);
  });

  it("paper_search, crawl and budget_status: free", async () => {
    expect(await estimate(tools.paper_search, { query: "q", providers: ["arxiv", "openalex"] })).toEqual({
      estimate: { providers: ["arxiv", "openalex"], max_cost_usd: 0 },
    });
    expect(await estimate(tools.crawl, { url: "https://example.com/" })).toEqual({
      estimate: { providers: ["direct"], max_cost_usd: 0 },
    });
    expect(await estimate(tools.budget_status, {})).toEqual({ estimate: { providers: [], max_cost_usd: 0 } });
  });

  it("research: the plan, every search, every page and the report; max_cost_usd caps it; no job", async () => {
    const before = await ledger(s.a);
    // 3 searches of Brave ($0.015) and 8 pages ($0.0144); the model is free.
    expect(await estimate(tools.research, { question: "q", max_queries: 3, providers: ["brave"] })).toEqual({
      estimate: { providers: ["llm", "brave", "direct", "jina", "tavily"], max_cost_usd: 0.0294 },
    });
    // Stopped at $0.002 it may still finish the search in flight, read and write: $0.002 + 0.005 + 0.0144.
    expect(
      await estimate(tools.research, {
        question: "q",
        max_queries: 8,
        providers: ["brave"],
        max_cost_usd: 0.002,
      }),
    ).toMatchObject({ estimate: { max_cost_usd: 0.0214 } });
    expect(await ledger(s.a)).toEqual(before);
  });

  it("refuses what the call would refuse: bad input, a missing scope, an unavailable provider", async () => {
    await expect(estimate(tools.web_search, { query: "" })).rejects.toMatchObject({ code: "invalid_input" });
    await expect(estimate(tools.web_search, { query: "q", nope: 1 })).rejects.toMatchObject({
      code: "invalid_input",
    });
    await expect(
      estimate(tools.answer, { query: "q" }, { ...s.a, scopes: ["search"] }),
    ).rejects.toMatchObject({ code: "forbidden" });
    await expect(estimate(tools.web_search, { query: "q", providers: ["exa"] })).rejects.toThrow(
      /not available without a key: exa/,
    );
  });

  it("answers over MCP with content the client validates, research's as a task done at once", async () => {
    const ctx: TenantContext = { ...s.a, surface: "mcp" };
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await buildServer(ctx, revision2025, { tasks: true }).connect(serverSide);
    const client = new Client({ name: "estimates", version: "1.0.0" });
    clients.push(client);
    await client.connect(clientSide);
    await client.listTools(); // the client validates structured content against these schemas

    const search = await client.callTool({
      name: "web_search",
      arguments: { query: "q", providers: ["brave"], estimate: true },
    });
    expect(search.isError).toBeFalsy();
    expect(search.structuredContent).toEqual({ estimate: { providers: ["brave"], max_cost_usd: 0.005 } });
    expect((search.content as Array<{ text: string }>)[0]?.text).toBe(
      "Estimate (nothing was called): at most $0.005 — providers asked: brave.",
    );
    const jobs = (await ledger(s.a)).jobs;
    const research = await client.callTool({
      name: "research",
      arguments: { question: "q", max_queries: 1, max_pages: 1, providers: ["brave"], estimate: true },
    });
    expect(research.structuredContent).toEqual({
      estimate: { providers: ["llm", "brave", "direct", "jina", "tavily"], max_cost_usd: 0.0068 },
    });
    expect((await ledger(s.a)).jobs).toBe(jobs);
    nothingSent();
    const stored = await s.a.db.withTenant(s.a.tenantId, (tx) =>
      tx.select().from(researchJobs).where(eq(researchJobs.tenantId, s.a.tenantId)),
    );
    expect(stored).toHaveLength(jobs);
  });
});
