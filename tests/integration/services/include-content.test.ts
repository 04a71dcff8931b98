import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Platform, TenantContext } from "@/lib/pipeline/context";
import { webSearch } from "@/lib/services/search/web-search";
import { createTenant } from "@/lib/services/tenants/create-tenant";
import { getTrace } from "@/lib/services/traces/get-trace";
import { FETCH_WIRES, fetchWireId } from "@/tests/fakes/fetch-wires";
import { type FakeProviders, startFakeProviders } from "@/tests/fakes/provider-server";
import { primaryTarget, type TestDatabase } from "@/tests/support/database";
import { generous } from "@/tests/support/generous";
import { systemCtx, tenantCtx, testPlatform } from "@/tests/support/platform";

const article = (title: string) =>
  `<!DOCTYPE html><html><head><title>${title}</title></head><body><article><h1>${title}</h1>${`<p>${title} explains how ripgrep walks directories in parallel and skips ignored files.</p>`.repeat(6)}</article></body></html>`;
const PAYWALL = `<!DOCTYPE html><html><head><title>Premium</title></head><body><article><h1>Premium</h1><p>Subscribe now to continue reading.</p></article></body></html>`;

describe.each(primaryTarget())("web_search with include_content on $name", (target) => {
  let t: TestDatabase;
  let fake: FakeProviders;
  let site: http.Server;
  let origin: string;
  let platform: Platform;
  let ctx: TenantContext;
  /** Resolves once a client hung up on /slow (it never answers, so a client ends it only by giving up). */
  let slowDropped: Promise<void>;
  let onSlowDropped = () => {};

  const searchFinds = (...paths: string[]) =>
    fake.setScenario("duckduckgo", {
      results: paths.map((path) => ({
        title: `Result ${path}`,
        url: `${origin}${path}`,
        snippet: `About ${path}.`,
      })),
    });
  const search = (extra: Record<string, unknown>) =>
    webSearch({
      ctx,
      input: { query: "ripgrep", providers: ["duckduckgo"], include_content: true, ...extra },
    });

  beforeAll(async () => {
    t = await target.create();
    fake = await startFakeProviders(FETCH_WIRES);
    site = http.createServer((req, res) => {
      if (req.url === "/slow") {
        res.on("close", () => onSlowDropped());
        return; // never answers
      }
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(req.url === "/paywall" ? PAYWALL : article(`Page ${req.url?.slice(1)}`));
    });
    await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
    origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    platform = testPlatform(t.db, {
      env: {
        SEARCHMUX_FETCH_ALLOWLIST: "127.0.0.1",
        DUCKDUCKGO_BASE_URL: fake.baseUrlFor("duckduckgo"),
        JINA_READER_BASE_URL: fake.baseUrlFor(fetchWireId("jina")),
      },
    });
    ctx = tenantCtx(
      platform,
      (await createTenant({ ctx: systemCtx(platform), input: { name: "content" } })).id,
    );
  });
  afterAll(async () => {
    site?.closeAllConnections();
    site?.close();
    await fake?.close();
    await t?.cleanup();
  });
  beforeEach(() => {
    fake.resetScenarios();
    fake.clearRequests();
  });

  it("returns the top pages' Markdown with their results, cut to max_chars", async () => {
    searchFinds("/one", "/two", "/three");
    const result = await search({ content_results: 2, max_chars: 300 });
    const [one, two, three] = result.results;
    expect(one?.content).toMatch(/^# Page one\n\nPage one explains how ripgrep/);
    expect(one?.content).toContain("[… truncated:");
    expect(two?.content).toMatch(/^# Page two/);
    expect(three).not.toHaveProperty("content");
    expect(three).not.toHaveProperty("content_error");
    expect(result.results.map((r) => r.snippet_source)).toEqual(["aggregated", "aggregated", "aggregated"]);

    await platform.traces.flush();
    const trace = await getTrace({ ctx, input: { id: result.trace_id } });
    expect(trace.spans.filter((s) => s.kind === "fetch").map((s) => s.provider)).toEqual([
      "direct",
      "direct",
    ]);
    expect(trace.summary).toMatchObject({ content: [{ provider: "direct" }, { provider: "direct" }] });

    const again = await search({ content_results: 2, max_chars: 300 });
    expect([again.cache_hit, again.results[0]?.content]).toEqual([true, one?.content]);
    // The plain search is another result, made of the provider answers the first call kept: no call.
    const withoutContent = await webSearch({ ctx, input: { query: "ripgrep", providers: ["duckduckgo"] } });
    expect(withoutContent.cache_hit).toBe(true);
    expect(fake.requests("duckduckgo")).toHaveLength(1);
    expect(withoutContent.results[0]).not.toHaveProperty("content");
  });

  it("keeps a result whose page fails and says why, after the whole fetch waterfall", async () => {
    searchFinds("/paywall", "/one");
    fake.setScenario(fetchWireId("jina"), { status: 500 });
    const result = await search({ no_cache: true });
    expect(result.results[0]).toMatchObject({
      url: `${origin}/paywall`,
      content_error: expect.stringMatching(/direct: paywall; jina: http_error/),
    });
    expect(result.results[0]).not.toHaveProperty("content");
    expect(result.results[1]?.content).toMatch(/^# Page one/);
  });

  it("stays within the call's deadline: a page that does not answer in time reports it", async () => {
    searchFinds("/slow", "/one");
    slowDropped = new Promise((resolve) => {
      onSlowDropped = resolve;
    });
    const started = Date.now();
    const result = await search({ timeout_ms: 1_500, no_cache: true });
    // The deadline hung up on the page that never answers; the bound is generous (10× the deadline).
    await slowDropped;
    expect(Date.now() - started).toBeLessThan(generous(1_500));
    expect(result.results[0]).toMatchObject({ content_error: expect.stringMatching(/deadline|timeout/) });
    expect(result.results[1]?.content).toMatch(/^# Page one/);
    // A page that timed out may load next time: the result is not cached.
    expect((await search({ timeout_ms: 1_500 })).cache_hit).toBe(false);
  });
});
