/**
 * `searchmux mcp` (compiled as it ships: dist/searchmux.mjs, here in a directory of this file's own) driven
 * by the official MCP client over stdio, as a local client would run it:
 * - local mode: the engine in the bridge's process with providers faked at the HTTP level (base URLs in
 *   its environment), no database (its data directory stays empty); fetch's paging from the documents it
 *   keeps in memory, `urls` and crawl against the fake sites (tests/fakes/paging-site.ts, crawl-site.ts);
 * - forwarding mode: the hosted MCP server (buildServer for a tenant on the embedded database) behind
 *   a Streamable HTTP endpoint that checks a Bearer token, as `/api/mcp` does; crawl, paging and `urls`
 *   pass through;
 * - configuration errors and a refused token: a clear message on stderr, an exit code, nothing on stdout.
 * (Against `next start` the forwarding case is the same with SEARCHMUX_URL pointing at the app and a
 * token from `npm run smx -- token create`; the e2e suite owns that server.)
 */
import { execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildServer } from "@/lib/mcp/build-server";
import { revision2025 } from "@/lib/mcp/revision-2025";
import { DEFAULT_TOKEN_SCOPES } from "@/lib/pipeline/context";
import { PER_HOST } from "@/lib/services/fetch/fetch-many";
import { createTenant } from "@/lib/services/tenants/create-tenant";
import { type CrawlSite, startCrawlSite } from "@/tests/fakes/crawl-site";
import { LONG_PARAGRAPHS, type PagingSite, startPagingSite } from "@/tests/fakes/paging-site";
import { type FakeProviders, startFakeProviders } from "@/tests/fakes/provider-server";
import { compileCli } from "@/tests/support/compile-cli";
import { databaseTargets, type TestDatabase } from "@/tests/support/database";
import { systemCtx, tenantCtx, testPlatform } from "@/tests/support/platform";
import { fakeProviderEnv } from "@/tests/support/provider-env";
import { docx, numbered, style, wp } from "@/tests/unit/fetch/documents-fixtures";
import { type Site, startSite } from "@/tests/unit/fetch/site-server";

const cli = mkdtempSync(path.join(tmpdir(), "smx-bridge-cli-"));
const BIN = path.join(cli, "searchmux.mjs");
const TOKEN = "smx_test_bridge_token";
const run = promisify(execFile);

type ToolResult = Awaited<ReturnType<Client["callTool"]>>;
const text = (result: ToolResult) =>
  (result.content as Array<{ text?: string }>).map((c) => c.text ?? "").join("\n");

let fake: FakeProviders;
let providerEnv: Record<string, string>;
let pagingSite: PagingSite;
let crawlSite: CrawlSite;

interface Window {
  content: string;
  offset: number;
  next_offset: number | null;
  total_chars: number;
  cache_hit: boolean;
  trace_id: string | null;
}
type Batch = { results: Array<{ url: string; title?: string; error?: { code: string; message: string } }> };
interface CrawlMap {
  pages: Array<{ url: string; title: string }>;
  skipped: Array<{ url: string; reason: string }>;
  errors: Array<{ url: string; code: string }>;
  counts: { pages: number; skipped: number; errors: number; off_site: number };
  stopped: string;
  trace_id: string | null;
}

/** `path` of the paging site read window by window; each window's structured content. */
async function readInWindows(client: Client, path: string, maxChars: number): Promise<Window[]> {
  const windows: Window[] = [];
  let offset: number | null = 0;
  while (offset !== null) {
    const result = await client.callTool({
      name: "fetch",
      arguments: { url: `${pagingSite.origin}${path}`, max_chars: maxChars, offset },
    });
    expect(result.isError, text(result)).toBeFalsy();
    const window = result.structuredContent as unknown as Window;
    windows.push(window);
    offset = window.next_offset;
  }
  return windows;
}

/** Five pages of the paging site, the fourth missing (the site answers 404: no other step is tried). */
const fiveUrls = () => [1, 2, 3, 0, 4].map((n) => `${pagingSite.origin}/${n ? `page/${n}` : "missing"}`);
/** What a fetch of fiveUrls() brings back for each, in order: a title, or the missing page's error code. */
const FIVE_OUTCOMES = ["Page 1", "Page 2", "Page 3", "not_found", "Page 4"];

type BridgeEnv = Record<string, string> & NodeJS.ProcessEnv;

/** The parent's environment without provider keys or a Searchmux URL, plus `extra`. */
function bridgeEnv(extra: Record<string, string>): BridgeEnv {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value === undefined || /_API_KEY$|^SEARCHMUX_|^SEARXNG_URL$|^DATABASE_URL$/.test(name)) continue;
    env[name] = value;
  }
  // A filtered copy of process.env: NODE_ENV, which the type insists on, is in it.
  return { ...env, ...extra } as BridgeEnv;
}

async function startBridge(env: BridgeEnv): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, "mcp"],
    env,
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const client = new Client({ name: "stdio-bridge-test", version: "1.0.0" });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

/** The bridge run to its end without a client: exit code and both streams. */
async function runBridgeToExit(env: BridgeEnv) {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, "mcp"], { env, timeout: 30_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

beforeAll(async () => {
  await compileCli(cli);
  fake = await startFakeProviders();
  providerEnv = fakeProviderEnv(fake.url);
  pagingSite = await startPagingSite({ delayMs: 150 });
  crawlSite = await startCrawlSite();
}, 120_000);
afterAll(async () => {
  await fake?.close();
  pagingSite?.close();
  await crawlSite?.close();
  rmSync(cli, { recursive: true, force: true });
});

describe("local mode", () => {
  let bridge: Awaited<ReturnType<typeof startBridge>>;
  let site: Site;
  let dataDir: string;

  beforeAll(async () => {
    site = await startSite({
      "/handbook.docx": {
        headers: { "content-type": "application/octet-stream" },
        body: docx({
          title: "Team handbook",
          body: [
            wp("Onboarding", style("Heading1")),
            wp("Every new member gets a laptop, an account and a mentor in the first week. ".repeat(4)),
            wp("Read the security policy", numbered(0)),
          ].join(""),
        }),
      },
    });
    // Empty, and must stay so: the bridge never opens a database.
    dataDir = mkdtempSync(path.join(tmpdir(), "smx-bridge-local-"));
    bridge = await startBridge(
      bridgeEnv({ ...providerEnv, SEARCHMUX_DATA_DIR: dataDir, SEARCHMUX_FETCH_ALLOWLIST: "127.0.0.1" }),
    );
  });
  afterAll(async () => {
    await bridge?.client.close();
    await site?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("lists the nine tools with the hosted server's schemas", async () => {
    const { tools } = await bridge.client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([
      "answer",
      "budget_status",
      "crawl",
      "extract",
      "fetch",
      "image_search",
      "paper_search",
      "similar",
      "web_search",
    ]);
    expect(tools.find((tool) => tool.name === "web_search")?.annotations).toMatchObject({
      readOnlyHint: true,
    });
    expect(bridge.stderr()).toContain("searchmux: local mode");
  });

  it("web_search returns results fused from the keyless providers, untraced", async () => {
    const result = await bridge.client.callTool({ name: "web_search", arguments: { query: "rust async" } });
    expect(result.isError).toBeFalsy();
    const structured = result.structuredContent as {
      results: Array<{ url: string; sources: Array<{ provider: string }> }>;
      providers_succeeded: Array<{ provider: string }>;
      trace_id: string | null;
      cache_hit: boolean;
    };
    expect(structured.providers_succeeded.map((p) => p.provider).sort()).toEqual(["duckduckgo", "wikipedia"]);
    expect(structured.results.length).toBeGreaterThan(0);
    expect(structured).toMatchObject({ trace_id: null, cache_hit: false });
    expect(text(result)).toMatch(/^Web results for "rust async": \d+ in \d+ ms/);

    // The operator's result cache is the bridge's memory: the same search again makes no request.
    const again = await bridge.client.callTool({ name: "web_search", arguments: { query: "rust async" } });
    expect(again.structuredContent).toMatchObject({ trace_id: null, cache_hit: true });
  });

  it("fetch reads a Word document from the allowed loopback site", async () => {
    const result = await bridge.client.callTool({
      name: "fetch",
      arguments: { url: `${site.url}/handbook.docx` },
    });
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ title: "Team handbook", provider: "direct" });
    expect(text(result)).toContain("# Onboarding\n\nEvery new member gets a laptop");
    expect(text(result)).toContain("-   Read the security policy");
  });

  it("pages through a long document fetched once: later windows make no request to the site", async () => {
    pagingSite.reset();
    const windows = await readInWindows(bridge.client, "/long", 100_000);
    expect(windows.length).toBeGreaterThan(3);
    const [first, second] = windows;
    expect(first).toMatchObject({ offset: 0, cache_hit: false, trace_id: null });
    expect(second).toMatchObject({ offset: first?.next_offset, cache_hit: true });
    expect(windows.slice(1).every((window) => window.cache_hit)).toBe(true);
    const whole = windows.map((window) => window.content).join("");
    expect(whole.length).toBe(first?.total_chars);
    expect(whole).toContain(`Paragraph ${LONG_PARAGRAPHS} of the long report`);
    expect(pagingSite.requests("/long")).toBe(1);

    // no_cache fetches again; an offset past the end is a tool error naming total_chars.
    const fresh = await bridge.client.callTool({
      name: "fetch",
      arguments: { url: `${pagingSite.origin}/long`, no_cache: true },
    });
    expect(fresh.structuredContent).toMatchObject({ cache_hit: false, offset: 0 });
    expect(pagingSite.requests("/long")).toBe(2);
    const past = await bridge.client.callTool({
      name: "fetch",
      arguments: { url: `${pagingSite.origin}/long`, offset: first?.total_chars },
    });
    expect(past.isError).toBe(true);
    expect(text(past)).toContain(`total_chars ${first?.total_chars}`);
  });

  it("fetches urls in input order, one error for the missing page, at most PER_HOST at once", async () => {
    pagingSite.reset();
    const urls = fiveUrls();
    const result = await bridge.client.callTool({ name: "fetch", arguments: { urls } });
    expect(result.isError).toBeFalsy();
    const { results } = result.structuredContent as unknown as Batch;
    expect(results.map((item) => item.url)).toEqual(urls);
    expect(results.map((item) => item.title ?? item.error?.code)).toEqual(FIVE_OUTCOMES);
    expect(results[3]?.error).toMatchObject({ message: expect.stringContaining("HTTP 404"), status: 404 });
    expect(pagingSite.maxConcurrent()).toBeGreaterThan(1);
    expect(pagingSite.maxConcurrent()).toBeLessThanOrEqual(PER_HOST);
    expect(text(result)).toMatch(/^5 URLs fetched, 1 failed/);

    // Each page was kept: a fetch of one of them is a hit.
    const again = await bridge.client.callTool({ name: "fetch", arguments: { url: urls[0] } });
    expect(again.structuredContent).toMatchObject({ title: "Page 1", cache_hit: true });
    expect(pagingSite.requests("/page/1")).toBe(1);
  });

  it("maps the fake site with crawl: robots.txt obeyed, redirects to private addresses refused", async () => {
    const before = crawlSite.hits().length;
    const result = await bridge.client.callTool({
      name: "crawl",
      arguments: { url: `${crawlSite.origin}/`, mode: "map" },
    });
    expect(result.isError, text(result)).toBeFalsy();
    const map = result.structuredContent as unknown as CrawlMap;
    expect(map).toMatchObject({ stopped: "complete", trace_id: null });
    expect(map.counts).toEqual({ pages: 33, skipped: 1, errors: 2, off_site: 1 });
    expect(map.skipped).toEqual([
      { url: `${crawlSite.origin}/private/secret`, reason: "disallowed by robots.txt" },
    ]);
    expect(map.errors.map((error) => [error.url, error.code]).sort()).toEqual([
      [`${crawlSite.origin}/go/intranet`, "blocked"],
      [`${crawlSite.origin}/go/metadata`, "blocked"],
    ]);
    expect(map.pages.map((page) => page.title)).toContain("Orphan"); // from the sitemap
    const hits = crawlSite.hits().slice(before);
    expect(hits).toContain("/robots.txt");
    expect(hits).not.toContain("/private/secret");
    expect(text(result)).toMatch(/^Map of http:\/\/127\.0\.0\.1:\d+\/: 33 pages, 1 skipped, 2 errors/);
  });

  it("refuses a private start for crawl and fetch's urls, as the hosted server does", async () => {
    const crawl = await bridge.client.callTool({
      name: "crawl",
      arguments: { url: "http://169.254.169.254/latest/meta-data/" },
    });
    expect(crawl.isError).toBe(true);
    const fetched = await bridge.client.callTool({
      name: "fetch",
      arguments: { urls: ["http://10.0.0.1/admin", `${pagingSite.origin}/page/9`] },
    });
    const { results } = fetched.structuredContent as unknown as Batch;
    expect(results.map((item) => item.error?.code ?? item.title)).toEqual(["invalid_input", "Page 9"]);
  });

  it("reports a provider without a key as a tool error", async () => {
    const result = await bridge.client.callTool({
      name: "web_search",
      arguments: { query: "x", providers: ["brave"] },
    });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain("brave");
  });

  it("budget_status says budgets are not tracked and lists the providers", async () => {
    const result = await bridge.client.callTool({ name: "budget_status", arguments: {} });
    expect(result.structuredContent).toEqual({ budgets: [], providers: [], alerts: [] });
    expect(text(result)).toMatch(/^Budgets are not tracked here/);
    expect(text(result)).toMatch(/- web_search: .*duckduckgo/);
  });

  it("never touches a database", () => {
    expect(readdirSync(dataDir)).toEqual([]);
  });

  it("writes nothing but JSON-RPC messages to stdout, and exits 0 when stdin closes", async () => {
    const child = spawn(process.execPath, [BIN, "mcp"], { env: bridgeEnv(providerEnv) });
    let stdout = "";
    const answered = new Promise<void>((resolve) =>
      child.stdout.on("data", (chunk: Buffer) => {
        stdout += chunk.toString();
        if (stdout.includes('"id":3')) resolve();
      }),
    );
    const send = (message: object) =>
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
    send({
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    });
    send({ method: "notifications/initialized" });
    send({ id: 2, method: "tools/list" });
    send({
      id: 3,
      method: "tools/call",
      params: { name: "web_search", arguments: { query: "stdout purity" } },
    });
    await answered;
    child.stdin.end();
    const [code] = await once(child, "exit");
    expect(code).toBe(0);
    const lines = stdout.split("\n").filter((line) => line !== "");
    expect(lines.map((line) => JSON.parse(line).id)).toEqual([1, 2, 3]);
  });
});

describe("forwarding mode", () => {
  let database: TestDatabase;
  let remote: http.Server;
  let remoteUrl: string;
  let bridge: Awaited<ReturnType<typeof startBridge>>;

  beforeAll(async () => {
    const [pglite] = databaseTargets();
    if (!pglite) throw new Error("no database target");
    database = await pglite.create();
    const platform = testPlatform(database.db, {
      env: { ...providerEnv, SEARCHMUX_FETCH_ALLOWLIST: "127.0.0.1" },
    });
    const tenantId = (await createTenant({ ctx: systemCtx(platform), input: { name: "bridge" } })).id;
    const ctx = { ...tenantCtx(platform, tenantId, DEFAULT_TOKEN_SCOPES), surface: "mcp" as const };
    // What /api/mcp does, with a fixed token instead of the token table: stateless, one server per POST.
    remote = http.createServer(async (req, res) => {
      if (req.headers.authorization !== `Bearer ${TOKEN}`) {
        res.writeHead(401, { "content-type": "application/json", "www-authenticate": "Bearer" });
        res.end(JSON.stringify({ error: { code: "unauthorized", message: "invalid token" } }));
        return;
      }
      if (req.method !== "POST") {
        res.writeHead(405, { allow: "POST" }).end();
        return;
      }
      const server = buildServer(ctx, revision2025, { tasks: true });
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      res.on("close", () => void server.close());
      await server.connect(transport);
      await transport.handleRequest(req, res);
    });
    await new Promise<void>((resolve) => remote.listen(0, "127.0.0.1", resolve));
    remoteUrl = `http://127.0.0.1:${(remote.address() as AddressInfo).port}`;
    bridge = await startBridge(bridgeEnv({ SEARCHMUX_URL: remoteUrl, SEARCHMUX_TOKEN: TOKEN }));
  });
  afterAll(async () => {
    await bridge?.client.close();
    remote?.close();
    await database?.cleanup();
  });

  it("shows the remote server's tools and instructions", async () => {
    const { tools } = await bridge.client.listTools();
    expect(tools.map((tool) => tool.name)).toContain("web_search");
    expect(bridge.client.getInstructions()).toMatch(/^Searchmux is a search gateway/);
    expect(bridge.stderr()).toContain(`searchmux: forwarding to ${remoteUrl}/api/mcp`);
  });

  it("forwards a call, traced by the remote, with its progress", async () => {
    // The SDK's client handles a notification a microtask after it arrives and a response at once, so a
    // progress event that reaches it in the same read as the result is dropped; wikipedia answering later
    // keeps duckduckgo's event well ahead of the result (wikipedia's own may be dropped that way).
    fake.setScenario("wikipedia", { latencyMs: 400 });
    const progress: string[] = [];
    try {
      const result = await bridge.client.callTool(
        {
          name: "web_search",
          arguments: { query: "forwarded query", providers: ["duckduckgo", "wikipedia"] },
        },
        undefined,
        { onprogress: (event) => progress.push(event.message ?? "") },
      );
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toMatchObject({
        query: "forwarded query",
        trace_id: expect.any(String),
      });
    } finally {
      fake.resetScenarios();
    }
    expect(progress[0]).toMatch(/^duckduckgo: ok in \d+ ms$/);
    expect(progress.slice(1)).toEqual(
      progress.slice(1).map(() => expect.stringMatching(/^wikipedia: ok in \d+ ms$/)),
    );
  });

  it("forwards crawl, fetch's paging and urls unchanged, from the remote's cache and traced", async () => {
    const { tools } = await bridge.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(["crawl", "fetch"]));
    const fetchSchema = tools.find((tool) => tool.name === "fetch")?.inputSchema.properties ?? {};
    expect(Object.keys(fetchSchema)).toEqual(expect.arrayContaining(["url", "urls", "offset"]));

    pagingSite.reset();
    const windows = await readInWindows(bridge.client, "/long", 150_000);
    expect(windows.length).toBeGreaterThan(2);
    expect(windows[0]).toMatchObject({ offset: 0, cache_hit: false, trace_id: expect.any(String) });
    expect(windows.slice(1).every((window) => window.cache_hit)).toBe(true);
    expect(windows.map((window) => window.content).join("").length).toBe(windows[0]?.total_chars);
    expect(pagingSite.requests("/long")).toBe(1);

    const urls = fiveUrls();
    const many = await bridge.client.callTool({ name: "fetch", arguments: { urls } });
    const { results } = many.structuredContent as unknown as Batch;
    expect(results.map((item) => item.title ?? item.error?.code)).toEqual(FIVE_OUTCOMES);

    const crawled = await bridge.client.callTool({
      name: "crawl",
      arguments: { url: `${crawlSite.origin}/`, mode: "map" },
    });
    const map = crawled.structuredContent as unknown as CrawlMap;
    expect(map.counts).toEqual({ pages: 33, skipped: 1, errors: 2, off_site: 1 });
    expect(map.trace_id).toEqual(expect.any(String));
  });

  it("forwards resources", async () => {
    const { resources } = await bridge.client.listResources();
    expect(resources.map((resource) => resource.uri)).toEqual(["searchmux://providers"]);
    const read = await bridge.client.readResource({ uri: "searchmux://providers" });
    expect(read.contents[0]).toMatchObject({ uri: "searchmux://providers", mimeType: "application/json" });
  });

  it("exits with 1 and says why when the remote refuses the token", async () => {
    const { code, stdout, stderr } = await runBridgeToExit(
      bridgeEnv({ SEARCHMUX_URL: remoteUrl, SEARCHMUX_TOKEN: "smx_wrong" }),
    );
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toContain(`searchmux: ${remoteUrl} refused the token (HTTP 401): check SEARCHMUX_TOKEN`);
  });
});

describe("configuration errors", () => {
  it.each([
    [{ SEARCHMUX_URL: "https://searchmux.example" }, "searchmux: SEARCHMUX_TOKEN is not set"],
    [
      { SEARCHMUX_URL: "not a url", SEARCHMUX_TOKEN: TOKEN },
      "searchmux: SEARCHMUX_URL is not a URL: not a url",
    ],
  ])("exits with 2 for %o", async (env, message) => {
    const { code, stdout, stderr } = await runBridgeToExit(bridgeEnv(env));
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toContain(message);
  });

  it("prints its usage for an unknown command", async () => {
    const failed = await run(process.execPath, [BIN, "serve"]).catch((error: unknown) => error);
    expect(failed).toMatchObject({
      code: 2,
      stdout: "",
      stderr: expect.stringContaining("usage: searchmux mcp"),
    });
  });
});
