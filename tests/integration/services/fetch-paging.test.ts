/**
 * fetch sized for agents: a long page and a 300-page PDF read in pages (later pages from the cache, no
 * site request, no charge), the MCP default and its "continue" note over a real MCP client, offsets past
 * the end, and `urls`: 20 pages in one call, in order, per-URL errors, the per-host limit and one trace.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { buildServer } from "@/lib/mcp/build-server";
import { revision2025 } from "@/lib/mcp/revision-2025";
import type { Platform, TenantContext } from "@/lib/pipeline/context";
import { budgetStatus } from "@/lib/services/budgets/budget-status";
import { PER_HOST } from "@/lib/services/fetch/fetch-many";
import { fetchPage } from "@/lib/services/fetch/fetch-page";
import { MCP_CONTENT_TOTAL_CHARS, MCP_MAX_CHARS } from "@/lib/services/fetch/result-size";
import { webSearch } from "@/lib/services/search/web-search";
import { createTenant } from "@/lib/services/tenants/create-tenant";
import { getTrace } from "@/lib/services/traces/get-trace";
import { FETCH_WIRES, fetchWireId } from "@/tests/fakes/fetch-wires";
import { BOOK_PAGES, LONG_PARAGRAPHS, type PagingSite, startPagingSite } from "@/tests/fakes/paging-site";
import { type FakeProviders, startFakeProviders } from "@/tests/fakes/provider-server";
import { databaseTargets, type TestDatabase } from "@/tests/support/database";
import { systemCtx, tenantCtx, testPlatform } from "@/tests/support/platform";

const [pglite] = databaseTargets();

describe("fetch in pages and many URLs at once", () => {
  let t: TestDatabase;
  let fake: FakeProviders;
  let site: PagingSite;
  let platform: Platform;
  let ctx: TenantContext;
  let client: Client | undefined;

  /** Every page of `url` from `first` on, following next_offset; the site must not be asked again. */
  async function readAll(url: string, maxChars: number) {
    const pages = [await fetchPage({ ctx, input: { url, max_chars: maxChars } })];
    for (let page = pages[0]; page?.next_offset != null; ) {
      page = await fetchPage({ ctx, input: { url, max_chars: maxChars, offset: page.next_offset } });
      pages.push(page);
    }
    return pages;
  }

  beforeAll(async () => {
    if (!pglite) throw new Error("no database target");
    t = await pglite.create();
    fake = await startFakeProviders(FETCH_WIRES);
    site = await startPagingSite({ delayMs: 150 });
    platform = testPlatform(t.db, {
      env: {
        SEARCHMUX_FETCH_ALLOWLIST: "127.0.0.1",
        JINA_READER_BASE_URL: fake.baseUrlFor(fetchWireId("jina")),
        DUCKDUCKGO_BASE_URL: fake.baseUrlFor("duckduckgo"),
      },
    });
    ctx = tenantCtx(
      platform,
      (await createTenant({ ctx: systemCtx(platform), input: { name: "pager" } })).id,
    );
  });
  afterAll(async () => {
    await client?.close();
    site?.close();
    await fake?.close();
    await t?.cleanup();
  });
  beforeEach(() => {
    site.reset();
    fake.resetScenarios();
    fake.clearRequests();
  });

  it("reads a page of more than 300,000 characters in pages that concatenate to the whole, fetched once", async () => {
    const url = `${site.origin}/long`;
    const pages = await readAll(url, 40_000);
    const [first] = pages;
    expect(first?.total_chars).toBeGreaterThan(300_000);
    expect(pages.length).toBeGreaterThanOrEqual(Math.ceil((first?.total_chars ?? 0) / 40_000));
    expect(pages.map((p) => p.cache_hit)).toEqual([false, ...pages.slice(1).map(() => true)]);
    expect(site.requests("/long")).toBe(1);
    expect(fake.requests(fetchWireId("jina"))).toHaveLength(0);

    const whole = pages.map((p) => p.content).join("");
    expect(whole.length).toBe(first?.total_chars);
    for (const [i, page] of pages.entries()) {
      expect(page.offset).toBe(i === 0 ? 0 : pages[i - 1]?.next_offset);
      expect(page.content.length).toBeLessThanOrEqual(40_000);
      expect(page.metadata.truncated).toBe(page.next_offset !== null);
      // Cut at a paragraph, line or word break, never inside a word.
      if (page.next_offset !== null) expect(page.content).toMatch(/\s$/);
    }
    const numbers = [...whole.matchAll(/Paragraph (\d+) of/g)].map((m) => Number(m[1]));
    expect(numbers).toEqual(Array.from({ length: LONG_PARAGRAPHS }, (_, i) => i + 1));
    // The same document whole, in one call, is the cached one too.
    const once = await fetchPage({ ctx, input: { url, max_chars: 1_000_000 } });
    expect([once.cache_hit, once.content, once.next_offset]).toEqual([true, whole, null]);
    expect((await budgetStatus({ ctx })).providers.find((p) => p.provider === "jina")).toBeUndefined();
  });

  it(`reads a ${BOOK_PAGES}-page PDF in pages, every page marker once and in order`, {
    timeout: 60_000,
  }, async () => {
    const pages = await readAll(`${site.origin}/book.pdf`, 5_000);
    expect(pages.length).toBeGreaterThan(3);
    expect(site.requests("/book.pdf")).toBe(1);
    const whole = pages.map((p) => p.content).join("");
    const markers = [...whole.matchAll(/<!-- page (\d+) -->/g)].map((m) => Number(m[1]));
    expect(markers).toEqual(Array.from({ length: BOOK_PAGES }, (_, i) => i + 1));
    expect(whole).toContain(`This page of the manual describes step ${BOOK_PAGES} of the installation.`);
    expect(pages[0]?.metadata).toMatchObject({ pages: BOOK_PAGES });
  });

  it("refuses an offset past the end, naming total_chars", async () => {
    const url = `${site.origin}/page/end`;
    const { total_chars } = await fetchPage({ ctx, input: { url } });
    await expect(fetchPage({ ctx, input: { url, offset: total_chars } })).rejects.toMatchObject({
      code: "invalid_input",
      message: expect.stringContaining(`total_chars ${total_chars}`),
    });
    await expect(fetchPage({ ctx, input: {} })).rejects.toMatchObject({ code: "invalid_input" });
    await expect(
      fetchPage({ ctx, input: { url, urls: [url] } as unknown as { url: string } }),
    ).rejects.toMatchObject({
      code: "invalid_input",
      message: expect.stringContaining("either url or urls"),
    });
    await expect(
      fetchPage({ ctx, input: { urls: Array.from({ length: 21 }, (_, i) => `${url}/${i}`) } }),
    ).rejects.toMatchObject({ code: "invalid_input" });
  });

  it("answers MCP with a page sized for agents, a note on how to read on, and the next page from cache", async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await buildServer({ ...ctx, surface: "mcp" }, revision2025, { tasks: true }).connect(serverSide);
    client = new Client({ name: "pager", version: "1.0.0" });
    await client.connect(clientSide);
    await client.listTools(); // the client then checks structuredContent against the output schema
    const url = `${site.origin}/long`;

    const first = await client.callTool({ name: "fetch", arguments: { url, no_cache: true } });
    const page = first.structuredContent as {
      content: string;
      next_offset: number;
      total_chars: number;
      metadata: Record<string, unknown>;
    };
    expect(first.isError).toBeFalsy();
    // One length of the document, the same in the structured result and its text.
    expect(page.metadata).toMatchObject({ truncated: true });
    expect(page.metadata).not.toHaveProperty("total_chars");
    expect(page.content.length).toBeLessThanOrEqual(MCP_MAX_CHARS);
    expect(page.content.length).toBeGreaterThan(MCP_MAX_CHARS * 0.8);
    const text = (first.content as Array<{ text: string }>)[0]?.text ?? "";
    expect(text).toContain(
      `call fetch with offset=${page.next_offset} to continue; total ${page.total_chars} chars]`,
    );
    expect(text).toContain(`Characters 0–${page.content.length} of ${page.total_chars}\n`);
    expect(text.match(/\b\d{6,7}\b/g)?.filter((n) => n !== String(page.total_chars))).toEqual([
      String(page.total_chars - page.next_offset),
    ]);

    const requests = site.requests("/long");
    const second = await client.callTool({ name: "fetch", arguments: { url, offset: page.next_offset } });
    expect(second.structuredContent).toMatchObject({ offset: page.next_offset, cache_hit: true });
    expect(site.requests("/long")).toBe(requests);

    const many = await client.callTool({
      name: "fetch",
      arguments: { urls: [`${site.origin}/page/a`, `${site.origin}/missing`] },
    });
    expect(many.structuredContent).toMatchObject({
      results: [
        { url: `${site.origin}/page/a`, title: "Page a" },
        { url: `${site.origin}/missing`, error: { code: "not_found", status: 404 } },
      ],
    });
    expect((many.content as Array<{ text: string }>)[0]?.text).toMatch(/^2 URLs fetched, 1 failed/);
  });

  it("fetches 20 URLs in one call: input order, one error per failing URL, at most PER_HOST at once per host", async () => {
    const urls = [
      ...Array.from({ length: 18 }, (_, i) => `${site.origin}/page/${i + 1}`),
      `${site.origin}/missing`,
      "http://169.254.169.254/latest/meta-data/",
    ];
    urls.splice(5, 0, urls.splice(18, 1)[0] as string); // the 404 among the pages
    const result = await fetchPage({ ctx, input: { urls, no_cache: true } });
    if (!("results" in result)) throw new Error("expected one result per URL");

    expect(result.results.map((r) => r.url)).toEqual(urls);
    expect(result.results[5]).toMatchObject({
      url: `${site.origin}/missing`,
      error: { code: "not_found", message: expect.stringContaining("HTTP 404"), status: 404 },
    });
    // The site's own 404: Jina Reader, the next step, was never asked to render it.
    expect(fake.requests(fetchWireId("jina"))).toHaveLength(0);
    expect(result.results[19]).toMatchObject({
      error: { code: "invalid_input", message: expect.stringMatching(/metadata|private|link-local/i) },
    });
    const pages = result.results.filter((r) => !("error" in r));
    expect(pages).toHaveLength(18);
    for (const page of pages)
      if (!("error" in page)) expect(page.title).toBe(`Page ${page.url.split("/").at(-1)}`);

    expect(site.maxConcurrent()).toBeLessThanOrEqual(PER_HOST);
    expect(site.maxConcurrent()).toBeGreaterThan(1);

    await platform.traces.flush();
    const trace = await getTrace({ ctx, input: { id: result.trace_id } });
    expect(trace.spans.filter((s) => s.provider === "direct").length).toBeGreaterThanOrEqual(19);

    // Each page was cached on its own: a single fetch of one of them is a hit.
    const one = await fetchPage({ ctx, input: { url: urls[0] as string } });
    expect(one.cache_hit).toBe(true);
  });

  it("keeps to the call's deadline: URLs still queued when it passes report a timeout", async () => {
    // 12 pages of 600 ms, PER_HOST (3) at a time: four rounds, the deadline passes in the second.
    const paths = Array.from({ length: 12 }, (_, i) => `/slow/${i}`);
    const urls = paths.map((path) => `${site.origin}${path}`);
    const result = await fetchPage({ ctx, input: { urls, timeout_ms: 1_000, no_cache: true } });
    if (!("results" in result)) throw new Error("expected one result per URL");
    // The call stopped at the deadline rather than working through the queue: the last pages were never
    // requested (with no deadline but the default 30 s, every one would have been).
    expect(paths.filter((path) => site.requests(path) === 0).length).toBeGreaterThanOrEqual(PER_HOST);
    expect(result.results.map((r) => r.url)).toEqual(urls);
    expect(result.results.some((r) => "error" in r && r.error.code === "timeout")).toBe(true);
    expect(result.results.some((r) => !("error" in r))).toBe(true);
  });

  it("keeps web_search's include_content within its total on MCP: long pages trimmed, short ones whole", async () => {
    fake.setScenario("duckduckgo", {
      results: ["/long", "/page/short", "/book.pdf"].map((path) => ({
        title: path,
        url: `${site.origin}${path}`,
        snippet: `About ${path}.`,
      })),
    });
    const result = await webSearch({
      ctx: { ...ctx, surface: "mcp" },
      input: { query: "paging", providers: ["duckduckgo"], include_content: true, max_chars: 100_000 },
    });
    const [long, short, book] = result.results.map((r) => r.content ?? "");
    expect(short).not.toContain("[… truncated");
    expect(long).toContain(`[… truncated to fit include_content's ${MCP_CONTENT_TOTAL_CHARS} characters`);
    expect(book).toContain("[… truncated to fit");
    expect((long?.length ?? 0) + (short?.length ?? 0) + (book?.length ?? 0)).toBeLessThanOrEqual(
      MCP_CONTENT_TOTAL_CHARS,
    );
    // Short pages leave their share to the long ones.
    expect(long?.length).toBeGreaterThan(MCP_CONTENT_TOTAL_CHARS / 3);
  });
});
