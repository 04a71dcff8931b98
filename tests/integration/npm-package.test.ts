/**
 * The package as npm ships it: `npm pack` of the compiled bridge (scripts/build-cli.mjs), installed from
 * the tarball into an empty folder outside the checkout (offline: the bundle needs no dependencies), and
 * `npx searchmux mcp` there driven by the official MCP client over stdio — local mode, every provider at
 * the fake server. The checkout's own pack list holds the compiled files and the docs, no sources.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import packageJson from "@/package.json";
import { type FakeProviders, startFakeProviders } from "@/tests/fakes/provider-server";
import { compileCli } from "@/tests/support/compile-cli";
import { fakeProviderEnv } from "@/tests/support/provider-env";
import { makePdf } from "@/tests/unit/fetch/pdf-fixture";
import { type Site, startSite } from "@/tests/unit/fetch/site-server";

const run = promisify(execFile);
const work = mkdtempSync(path.join(tmpdir(), "smx-npm-package-"));
const stage = path.join(work, "package");
const consumer = path.join(work, "consumer");
/** npm without the network: a missing dependency fails the install instead of downloading it. */
const npm = (args: string[], cwd: string) =>
  run("npm", [...args, "--offline", "--no-audit", "--no-fund"], { cwd, timeout: 120_000 });

let fake: FakeProviders;
let site: Site;
let client: Client;
let tarball: string;

beforeAll(async () => {
  // What `npm run pack:cli` packs (the build's dist/, a package of its own), built apart so that concurrent
  // runs never rebuild the checkout's dist/ under each other.
  await compileCli(stage);
  const { stdout } = await npm(["pack", "--ignore-scripts", "--pack-destination", work], stage);
  tarball = path.join(work, stdout.trim().split("\n").at(-1) ?? "");
  mkdirSync(consumer);
  await npm(["init", "--yes"], consumer);
  await npm(["install", tarball], consumer);

  fake = await startFakeProviders();
  site = await startSite({
    "/notes.pdf": {
      headers: { "content-type": "application/pdf" },
      body: makePdf([["Installed bridges parse PDFs too"]], "Notes"),
    },
  });
  client = new Client({ name: "npm-package-test", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: "npx",
      args: ["--no", "searchmux", "mcp"],
      cwd: consumer,
      env: {
        PATH: process.env.PATH ?? "",
        HOME: process.env.HOME ?? work,
        npm_config_offline: "true",
        ...fakeProviderEnv(fake.url),
        SEARCHMUX_DATA_DIR: path.join(work, "data"),
        SEARCHMUX_FETCH_ALLOWLIST: "127.0.0.1",
      },
      stderr: "ignore",
    }),
  );
}, 240_000);

afterAll(async () => {
  await client?.close();
  await Promise.all([fake?.close(), site?.close()]);
  rmSync(work, { recursive: true, force: true });
});

describe("npm pack + install + npx searchmux mcp", () => {
  it("packs only the compiled files and the docs", async () => {
    const { stdout } = await npm(["pack", "--dry-run", "--json", "--ignore-scripts"], stage);
    const [{ files }] = JSON.parse(stdout) as [{ files: Array<{ path: string }> }];
    for (const { path: file } of files)
      expect(file).toMatch(/^([^/]+\.mjs|package\.json|README\.md|LICENSE)$/);
    const manifest = JSON.parse(readFileSync(path.join(stage, "package.json"), "utf8"));
    expect(manifest).toMatchObject({ name: packageJson.name, version: packageJson.version });
    expect(manifest.bin).toEqual({ searchmux: "searchmux.mjs" });
    expect(manifest).not.toHaveProperty("dependencies");
  });

  it("installs from the tarball alone: no dependencies to download", () => {
    expect(readdirSync(path.join(consumer, "node_modules")).sort()).toEqual([
      ".bin",
      ".package-lock.json",
      "searchmux",
    ]);
  });

  it("lists the tools and searches the fake providers", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain("web_search");
    const result = await client.callTool({ name: "web_search", arguments: { query: "packed bridge" } });
    expect(result.isError).toBeFalsy();
    const { providers_succeeded, results } = result.structuredContent as {
      providers_succeeded: Array<{ provider: string }>;
      results: unknown[];
    };
    expect(providers_succeeded.map((p) => p.provider).sort()).toEqual(["duckduckgo", "wikipedia"]);
    expect(results.length).toBeGreaterThan(0);
    expect(fake.requests("duckduckgo").length).toBe(1);
  });

  it("reads a PDF with the worker shipped beside the bundle", async () => {
    const result = await client.callTool({ name: "fetch", arguments: { url: `${site.url}/notes.pdf` } });
    expect(result.isError).toBeFalsy();
    expect(JSON.stringify(result.content)).toContain("Installed bridges parse PDFs too");
  });
});
