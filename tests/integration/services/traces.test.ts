import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { traces } from "@/lib/db/schema";
import type { TenantContext } from "@/lib/pipeline/context";
import { setKey } from "@/lib/services/keys/set-key";
import { webSearch } from "@/lib/services/search/web-search";
import { createTenant } from "@/lib/services/tenants/create-tenant";
import { updateTenant } from "@/lib/services/tenants/update-tenant";
import { createToken } from "@/lib/services/tokens/create-token";
import { getTrace } from "@/lib/services/traces/get-trace";
import { listTraces } from "@/lib/services/traces/list-traces";
import { pruneTraces } from "@/lib/services/traces/prune-traces";
import { databaseTargets, withRawClient } from "@/tests/support/database";
import { systemCtx, tenantCtx } from "@/tests/support/platform";
import { fakeBaseUrls, serviceSuite } from "@/tests/support/service-suite";

const TENANT_KEY = "tvly-tenant-SECRET-0a1b2c3d";
const OPERATOR_KEY = "serpapi-operator-SECRET-99887766";

describe.each(databaseTargets())("traces on $name", (target) => {
  const s = serviceSuite(target, {
    env: (fake) => ({
      ...fakeBaseUrls(fake, ["tavily", "serpapi", "duckduckgo", "wikipedia"]),
      SERPAPI_API_KEY: OPERATOR_KEY, // serpapi takes its key in the query string
    }),
  });
  /** Tenant A through its token "agent-1" (search scope, over MCP); `s.a` is A's admin. */
  let a: TenantContext;
  let token: string;

  beforeAll(async () => {
    await setKey({ ctx: s.a, input: { provider: "tavily", key: TENANT_KEY } });
    const created = await createToken({ ctx: s.a, input: { name: "agent-1", scopes: ["search"] } });
    token = created.token;
    a = {
      ...tenantCtx(s.platform, s.a.tenantId, ["search"], {
        kind: "token",
        tokenId: created.id,
        tokenName: "agent-1",
        userId: null,
      }),
      surface: "mcp",
    };
  });

  it("records one trace per call with spans matching what the providers saw", async () => {
    const result = await webSearch({
      ctx: a,
      input: { query: "trace me", providers: ["tavily", "serpapi", "duckduckgo"] },
    });
    await s.platform.traces.flush();
    const trace = await getTrace({ ctx: a, input: { id: result.trace_id } });
    expect(trace).toMatchObject({
      tool: "web_search",
      surface: "mcp",
      token_name: "agent-1",
      status: "ok",
      cache_hit: false,
    });
    expect(trace.spans.map((s) => s.provider).sort()).toEqual(["duckduckgo", "serpapi", "tavily"]);
    for (const span of trace.spans) {
      expect(span).toMatchObject({ kind: "search", outcome: "ok", status: 200 });
      expect(s.fake.requests(span.provider)).toHaveLength(1);
    }
    expect(trace.cost_usd).toBeGreaterThan(0);
    expect(trace.summary).toMatchObject({ results: expect.any(Number), top_urls: expect.any(Array) });
    expect(trace.input).toMatchObject({ query: "trace me", providers: ["tavily", "serpapi", "duckduckgo"] });
  });

  it("records the surface each call came through", async () => {
    const ids: Array<[string, string, string]> = [];
    for (const surface of ["mcp", "rest", "playground", "cli"] as const) {
      const ctx = { ...s.b, surface };
      const search = await webSearch({ ctx, input: { query: `via ${surface}`, providers: ["duckduckgo"] } });
      ids.push([search.trace_id, surface, "web_search"]);
    }
    await s.platform.traces.flush();
    for (const [id, surface, tool] of ids) {
      expect(await getTrace({ ctx: s.b, input: { id } })).toMatchObject({ surface, tool });
    }
  });

  it("filters by surface, provider, time and text in one query", async () => {
    const ctx = tenantCtx(
      s.platform,
      (await createTenant({ ctx: systemCtx(s.platform), input: { name: "filters" } })).id,
    );
    const viaMcp = await webSearch({
      ctx: { ...ctx, surface: "mcp" },
      input: { query: "needle_100% in mcp", providers: ["duckduckgo"] },
    });
    const viaRest = await webSearch({
      ctx: { ...ctx, surface: "rest" },
      input: { query: "haystack over rest", providers: ["wikipedia"] },
    });
    await s.platform.traces.flush();
    const ids = async (input: Parameters<typeof listTraces>[0]["input"]) =>
      (await listTraces({ ctx, input })).traces.map((t) => t.id);
    expect(await ids({ surface: "mcp" })).toEqual([viaMcp.trace_id]);
    expect(await ids({ provider: "wikipedia" })).toEqual([viaRest.trace_id]);
    expect(await ids({ q: "NEEDLE_100%" })).toEqual([viaMcp.trace_id]);
    expect(await ids({ q: "needle_1000" })).toEqual([]);
    expect(await ids({ since: new Date(Date.now() + 60_000).toISOString() })).toEqual([]);
    expect((await ids({ since: new Date(Date.now() - 60_000).toISOString() })).sort()).toEqual(
      [viaMcp.trace_id, viaRest.trace_id].sort(),
    );
  });

  it("filters by every traced tool, crawl and research included", async () => {
    const ctx = tenantCtx(
      s.platform,
      (await createTenant({ ctx: systemCtx(s.platform), input: { name: "tool filter" } })).id,
    );
    const byTool = new Map<string, string>();
    await s.platform.db.withTenant(ctx.tenantId, async (tx) => {
      for (const tool of ["web_search", "crawl", "research"]) {
        const [row] = await tx
          .insert(traces)
          .values({
            tenantId: ctx.tenantId,
            tool,
            surface: "rest",
            status: "ok",
            durationMs: 1,
            input: {},
            resultSummary: {},
          })
          .returning({ id: traces.id });
        if (row) byTool.set(tool, row.id);
      }
    });
    for (const [tool, id] of byTool) {
      expect((await listTraces({ ctx, input: { tool } })).traces.map((t) => t.id)).toEqual([id]);
    }
    expect((await listTraces({ ctx, input: { tool: "answer" } })).traces).toEqual([]);
  });

  it("records cache hits, partial calls, budget skips and failures", async () => {
    const input = { query: "cached call", providers: ["duckduckgo"] };
    await webSearch({ ctx: a, input });
    const hit = await webSearch({ ctx: a, input });
    s.fake.setScenario("serpapi", { status: 502 });
    const partial = await webSearch({
      ctx: a,
      input: { query: "partial call", providers: ["serpapi", "duckduckgo"] },
    });
    s.fake.setScenario("duckduckgo", { status: 500 });
    const failing = webSearch({
      ctx: a,
      input: { query: "failing call", providers: ["serpapi", "duckduckgo"] },
    });
    await expect(failing).rejects.toMatchObject({ code: "all_providers_failed" });
    await s.platform.traces.flush();

    expect((await getTrace({ ctx: a, input: { id: hit.trace_id } })).spans).toEqual([
      expect.objectContaining({ provider: "*", outcome: "cache_hit", cost_usd: 0 }),
    ]);
    const partialTrace = await getTrace({ ctx: a, input: { id: partial.trace_id } });
    expect(partialTrace.status).toBe("partial");
    expect(partialTrace.spans.find((s) => s.provider === "serpapi")).toMatchObject({
      outcome: "error",
      status: 502,
    });
    const listed = await listTraces({ ctx: a, input: { status: "error" } });
    expect(listed.traces[0]).toMatchObject({
      tool: "web_search",
      status: "error",
      error: expect.stringMatching(/^all_providers_failed/),
    });
  });

  it("never stores a key or token, not even the one a provider takes in its query string", async () => {
    s.fake.setScenario("serpapi", { status: 401 });
    await webSearch({
      ctx: a,
      input: { query: `leak ${token} ${TENANT_KEY}`, providers: ["serpapi", "tavily"] },
    }).catch(() => undefined);
    await s.platform.traces.flush();
    const dump = await withRawClient(s.database.url, async (client) => {
      const rows = await Promise.all(
        ["traces", "trace_spans"].map((table) => client.query(`select * from ${table}`)),
      );
      return JSON.stringify(rows.map((r) => r.rows));
    });
    expect(dump.length).toBeGreaterThan(100);
    for (const secret of [TENANT_KEY, OPERATOR_KEY, token]) expect(dump).not.toContain(secret);
  });

  it("pages through traces, hides other tenants' and other tokens' traces", async () => {
    const first = await listTraces({ ctx: a, input: { limit: 2 } });
    expect(first.traces).toHaveLength(2);
    const second = await listTraces({ ctx: a, input: { limit: 2, cursor: first.next_cursor ?? "" } });
    expect(second.traces[0]?.id).not.toBe(first.traces[1]?.id);
    const id = first.traces[0]?.id ?? "";
    await expect(getTrace({ ctx: s.b, input: { id } })).rejects.toMatchObject({ code: "not_found" });
    const otherToken = {
      ...a,
      actor: { kind: "token" as const, tokenId: randomUUID(), tokenName: "other", userId: null },
    };
    await expect(getTrace({ ctx: otherToken, input: { id } })).rejects.toMatchObject({ code: "not_found" });
    await expect(listTraces({ ctx: a, input: { cursor: "garbage" } })).rejects.toMatchObject({
      code: "invalid_input",
    });
  });

  it("keeps every trace of a 1,000-call burst", async () => {
    const ctx = tenantCtx(
      s.platform,
      (await createTenant({ ctx: systemCtx(s.platform), input: { name: "burst" } })).id,
    );
    const ids = Array.from({ length: 1000 }, () => randomUUID());
    for (const id of ids) {
      ctx.traces.record({
        id,
        tenantId: ctx.tenantId,
        tool: "web_search",
        surface: "rest",
        tokenId: null,
        tokenName: null,
        userId: null,
        status: "ok",
        durationMs: 1,
        cacheHit: false,
        input: { query: "burst" },
        resultSummary: {},
        costMicros: 0,
        error: null,
        createdAt: new Date(),
        spans: [
          {
            provider: "duckduckgo",
            kind: "search",
            start_offset_ms: 0,
            duration_ms: 1,
            outcome: "ok",
            cost_micros: 0,
          },
        ],
      });
    }
    await ctx.traces.flush();
    expect(ctx.traces.pending()).toBe(0);
    const stored = await ctx.db.withTenant(ctx.tenantId, (tx) => tx.select({ id: traces.id }).from(traces));
    expect(stored).toHaveLength(1000);
  });

  it("stores hostile text (NUL characters) and drops only a trace the database refuses", async () => {
    const ctx = tenantCtx(
      s.platform,
      (await createTenant({ ctx: systemCtx(s.platform), input: { name: "hostile" } })).id,
    );
    const trace = (id: string, tenantId: string, query: string) => ({
      id,
      tenantId,
      tool: "web_search",
      surface: "rest" as const,
      tokenId: null,
      tokenName: null,
      userId: null,
      status: "error" as const,
      durationMs: 1,
      cacheHit: false,
      input: { query },
      resultSummary: {},
      costMicros: 0,
      error: "upstream\u0000said no",
      createdAt: new Date(),
      spans: [
        {
          provider: "duckduckgo",
          kind: "search" as const,
          start_offset_ms: 0,
          duration_ms: 1,
          outcome: "error" as const,
          error: "bad\u0000byte",
          cost_micros: 0,
        },
      ],
    });
    const kept = [randomUUID(), randomUUID()];
    ctx.traces.record(trace(kept[0] as string, ctx.tenantId, "nul\u0000query"));
    ctx.traces.record(trace(randomUUID(), randomUUID(), "no such tenant")); // violates the foreign key
    ctx.traces.record(trace(kept[1] as string, ctx.tenantId, "after the refused one"));
    await ctx.traces.flush();
    expect(ctx.traces.pending()).toBe(0);
    const stored = await ctx.db.withTenant(ctx.tenantId, (tx) =>
      tx.select({ id: traces.id, input: traces.input, error: traces.error }).from(traces),
    );
    expect(stored.map((row) => row.id).sort()).toEqual([...kept].sort());
    expect(stored.find((row) => row.id === kept[0])).toMatchObject({
      input: { query: "nulquery" },
      error: "upstreamsaid no",
    });
  });

  it("prunes traces past the tenant's retention, and only those", async () => {
    const ctx = tenantCtx(
      s.platform,
      (await createTenant({ ctx: systemCtx(s.platform), input: { name: "retention" } })).id,
    );
    await updateTenant({ ctx, input: { traceRetentionDays: 7 } });
    const result = await webSearch({ ctx, input: { query: "old", providers: ["duckduckgo"] } });
    await s.platform.traces.flush();
    const inEightDays = () => new Date(Date.now() + 8 * 86_400_000);
    const keptElsewhere = (await listTraces({ ctx: a, input: { limit: 100 } })).traces.length;
    expect(await pruneTraces({ ctx: { db: s.database.db, now: () => new Date() } })).toBe(0);
    expect(await pruneTraces({ ctx: { db: s.database.db, now: inEightDays } })).toBeGreaterThanOrEqual(1);
    await expect(getTrace({ ctx, input: { id: result.trace_id } })).rejects.toMatchObject({
      code: "not_found",
    });
    expect((await listTraces({ ctx: a, input: { limit: 100 } })).traces.length).toBe(keptElsewhere); // 30-day tenant untouched
  });
});
