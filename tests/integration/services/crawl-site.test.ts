/**
 * crawl for a tenant against the fake site (tests/fakes/crawl-site.ts): one trace with a span per fetch,
 * the free direct fetcher only (nothing charged), complete crawls cached and partial ones not, the fetch
 * scope, clear errors for bad input and private targets; then over REST (the tools' dynamic route) and
 * MCP (the SDK client, which checks structuredContent against the published output schema).
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildServer } from "@/lib/mcp/build-server";
import { revision2025 } from "@/lib/mcp/revision-2025";
import type { Platform, TenantContext } from "@/lib/pipeline/context";
import { budgetStatus } from "@/lib/services/budgets/budget-status";
import { crawlSite } from "@/lib/services/crawl/crawl-site";
import { createTenant } from "@/lib/services/tenants/create-tenant";
import { getTrace } from "@/lib/services/traces/get-trace";
import { type CrawlSite, startCrawlSite } from "@/tests/fakes/crawl-site";
import { serveRequest } from "@/tests/support/app-routes";
import { primaryTarget, type TestDatabase } from "@/tests/support/database";
import { systemCtx, tenantCtx, testPlatform } from "@/tests/support/platform";
import { inProcessApp, newToken, operatorWorkspace, routeRequest } from "@/tests/support/route-handlers";

describe.each(primaryTarget())("crawl for a tenant on $name", (target) => {
  let t: TestDatabase;
  let site: CrawlSite;
  let platform: Platform;
  let tenant: TenantContext;

  beforeAll(async () => {
    t = await target.create();
    site = await startCrawlSite();
    platform = testPlatform(t.db, { env: { SEARCHMUX_FETCH_ALLOWLIST: "127.0.0.1" } });
    tenant = tenantCtx(
      platform,
      (await createTenant({ ctx: systemCtx(platform), input: { name: "crawler" } })).id,
    );
  });
  afterAll(async () => {
    await site?.close();
    await t?.cleanup();
  });

  it("maps the site in one trace with a span per fetch, free of charge", async () => {
    const progress: string[] = [];
    const result = await crawlSite({
      ctx: tenant,
      input: { url: `${site.origin}/`, mode: "map" },
      onProgress: (span) => progress.push(span.provider),
    });
    expect(result).toMatchObject({ mode: "map", stopped: "complete", cache_hit: false });
    expect(result.counts).toEqual({ pages: 33, skipped: 1, errors: 2, off_site: 1 });
    expect(progress).toHaveLength(result.spans.length);

    await platform.traces.flush();
    const trace = await getTrace({ ctx: tenant, input: { id: result.trace_id } });
    // The refused redirects make it partial (not cached).
    expect(trace).toMatchObject({ tool: "crawl", status: "partial", cache_hit: false });
    expect(trace.spans).toHaveLength(result.spans.length);
    expect(trace.spans.every((s) => s.provider === "direct")).toBe(true);
    const usage = await budgetStatus({ ctx: tenant });
    expect(usage.providers.find((p) => p.provider === "direct")).toBeUndefined();
  });

  it("caches a complete crawl per tenant; no_cache crawls again", async () => {
    const input = { url: `${site.origin}/section/1`, max_depth: 1, include_paths: ["/section/1*"] };
    const first = await crawlSite({ ctx: tenant, input });
    expect(first).toMatchObject({ stopped: "complete", cache_hit: false, errors: [] });
    expect(first.pages.map((p) => p.title)).toEqual([
      "Section 1",
      ...[1, 2, 3, 4, 5].map((a) => `Article 1.${a}`),
    ]);
    const again = await crawlSite({ ctx: tenant, input });
    expect(again.cache_hit).toBe(true);
    expect(again.pages).toEqual(first.pages);
    expect((await crawlSite({ ctx: tenant, input: { ...input, no_cache: true } })).cache_hit).toBe(false);
  });

  it("refuses private targets, bad input and tokens without the fetch scope", async () => {
    await expect(
      crawlSite({ ctx: { ...tenant, env: {} }, input: { url: `${site.origin}/` } }),
    ).rejects.toMatchObject({ code: "invalid_input" });
    await expect(
      crawlSite({ ctx: tenant, input: { url: `${site.origin}/go/metadata`, no_cache: true } }),
    ).rejects.toMatchObject({ code: "invalid_input", message: expect.stringMatching(/169\.254\.169\.254/) });
    await expect(crawlSite({ ctx: tenant, input: { url: "not a url" } })).rejects.toMatchObject({
      code: "invalid_input",
    });
    await expect(
      crawlSite({ ctx: tenant, input: { url: `${site.origin}/`, depth: 3 } as never }),
    ).rejects.toMatchObject({ code: "invalid_input" });
    await expect(
      crawlSite({ ctx: { ...tenant, scopes: ["search"] }, input: { url: `${site.origin}/` } }),
    ).rejects.toMatchObject({ code: "forbidden" });
  });

  it("fails like fetch when the start page cannot be read", async () => {
    await expect(
      crawlSite({ ctx: tenant, input: { url: `${site.origin}/unavailable`, max_depth: 0, no_cache: true } }),
    ).rejects.toMatchObject({ code: "all_providers_failed", message: expect.stringMatching(/http_error/) });
  });

  it.each([
    ["/missing", 404],
    ["/gone", 410],
  ])("is not_found, like fetch, when the start page %s is the site's own %i", async (path, status) => {
    const crawl = crawlSite({
      ctx: tenant,
      input: { url: `${site.origin}${path}`, max_depth: 0, no_cache: true },
    });
    await expect(crawl).rejects.toMatchObject({
      code: "not_found",
      message: expect.stringMatching(/the page does not exist/),
      details: { status },
    });
  });
});

describe("crawl over REST and MCP", () => {
  const app = inProcessApp("crawl-transports");
  let site: CrawlSite;
  let token: string;
  let searchOnly: string;
  let ctx: TenantContext;

  beforeAll(async () => {
    site = await startCrawlSite();
    await app.start({ SEARCHMUX_FETCH_ALLOWLIST: "127.0.0.1", SEARCHMUX_RATE_LIMIT_RPM: "1000" });
    ctx = await operatorWorkspace("crawl", "mcp");
    token = await newToken(ctx, { name: "agent", scopes: ["fetch"] });
    searchOnly = await newToken(ctx, { name: "search-only", scopes: ["search"] });
  });
  afterAll(async () => {
    await app.stop();
    await site?.close();
  });

  const post = async (body: unknown, bearer = token) => {
    const response = await serveRequest(
      routeRequest("/api/v1/crawl", {
        method: "POST",
        token: bearer,
        body,
        headers: { "x-forwarded-for": "192.0.2.12" },
      }),
    );
    return { status: response.status, body: await response.json() };
  };

  it("POST /api/v1/crawl returns pages with Markdown, skipped and errors; bad input is a 400", async () => {
    const crawled = await post({ url: `${site.origin}/`, max_pages: 8, max_chars: 500 });
    expect(crawled.status).toBe(200);
    expect(crawled.body).toMatchObject({
      mode: "pages",
      stopped: "page_limit",
      counts: { pages: expect.any(Number) },
    });
    expect(crawled.body.pages[0]).toMatchObject({
      title: "Home",
      depth: 0,
      content: expect.stringContaining("# Home"),
    });
    expect(crawled.body.skipped).toContainEqual({
      url: `${site.origin}/private/secret`,
      reason: "disallowed by robots.txt",
    });
    expect(crawled.body.spans).toBeUndefined();

    // The site's own 404 for the start page: a 404 naming the status, as fetch answers, not a 502.
    const missing = await post({ url: `${site.origin}/missing`, max_depth: 0 });
    expect(missing).toMatchObject({
      status: 404,
      body: { error: { code: "not_found", details: { status: 404 } } },
    });
    expect((await post({ url: `${site.origin}/`, mode: "all" })).status).toBe(400);
    expect((await post({ url: "http://169.254.169.254/latest/" })).status).toBe(400);
    expect((await post({ url: `${site.origin}/` }, searchOnly)).status).toBe(403);
  });

  it("an agent maps the site over MCP", async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await buildServer({ ...ctx, scopes: ["fetch"] }, revision2025, { tasks: true }).connect(serverSide);
    const client = new Client({ name: "crawler", version: "1.0.0" });
    await client.connect(clientSide);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain("crawl");
      const result = await client.callTool({
        name: "crawl",
        arguments: { url: `${site.origin}/`, mode: "map" },
      });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toMatchObject({ mode: "map", counts: { pages: 33 } });
      const text = (result.content as Array<{ text?: string }>).map((c) => c.text ?? "").join("\n");
      expect(text).toMatch(/^Map of http:\/\/127\.0\.0\.1:\d+\/: 33 pages, 1 skipped, 2 errors/);
      expect(text).toContain(`${site.origin}/orphan (depth 1`);
      expect(text).toContain("disallowed by robots.txt");
    } finally {
      await client.close();
    }
  });
});
