/**
 * How many characters of one `web_search` result reach a model through each kind of MCP client:
 *
 *   npx tsx bench/mcp-result-size.ts [--results=10] [--langchain-dir=/tmp/lc]
 *
 * The stdio bridge (`searchmux mcp` compiled as it ships, into a temporary directory; local mode: the same tool
 * registration and text as the hosted server) answers from fake providers with realistic titles, URLs and snippets; the official SDK client
 * receives the raw result. Clients differ in what they hand the model (docs/decisions.md, "What MCP clients
 * show the model"):
 * - text blocks only: Gemini CLI, Open WebUI;
 * - JSON.stringify(structuredContent) only, whenever it is present: Claude Code, Codex CLI, opencode;
 * - @langchain/mcp-adapters: run for real, its ToolMessage content measured. It is not a dependency of this
 *   project: install it into a folder of its own (`npm install @langchain/mcp-adapters @langchain/core
 *   @langchain/langgraph`) and pass that folder as --langchain-dir; without it the row says so.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { type FakeResult, startFakeProviders } from "@/tests/fakes/provider-server";
import { compileCli } from "@/tests/support/compile-cli";
import { fakeProviderEnv } from "@/tests/support/provider-env";
import { numberFlag, stringFlag } from "./support/flags";

const PROVIDERS = ["duckduckgo", "brave", "tavily"] as const;
const RUNTIMES = ["tokio", "async-std", "smol", "glommio", "embassy", "monoio", "actix-rt", "bastion"];
const CRATES = ["futures", "mio", "compio", "may", "rayon", "crossbeam", "hyper", "axum"];

const resultCount = numberFlag("results", 10);
const query = "rust async runtimes";
const args = { query, max_results: resultCount, providers: [...PROVIDERS] };

/** A provider's page of results as real search APIs return them: ~70-character titles, ~230-character snippets. */
function providerResults(provider: string): FakeResult[] {
  return [...RUNTIMES, ...CRATES].slice(0, resultCount + 2).map((name, rank) => ({
    title: `${name}: asynchronous Rust, overview and comparison (${provider} #${rank + 1})`,
    url: `https://www.example.org/rust/${name}/overview-and-comparison`,
    snippet: `${name} is an asynchronous runtime for the Rust programming language. It provides the building blocks for writing network applications: a multi-threaded scheduler, timers, I/O drivers and synchronization primitives, as listed by ${provider}.`,
  }));
}

type CallResult = Awaited<ReturnType<Client["callTool"]>>;
type Row = { client: string; chars: number | null; note: string };

const textOf = (result: CallResult) =>
  (result.content as Array<{ type: string; text?: string }>).map((block) => block.text ?? "").join("\n");

/** What the model of a structuredContent-first client reads (Codex: serde_json::to_string; Claude Code alike). */
const structuredFirst = (result: CallResult) =>
  result.structuredContent === undefined ? textOf(result) : JSON.stringify(result.structuredContent);

interface LangChainTool {
  name: string;
  invoke(call: {
    name: string;
    args: typeof args;
    id: string;
    type: "tool_call";
  }): Promise<{ content: unknown }>;
}
interface LangChainClient {
  getTools(): Promise<LangChainTool[]>;
  close(): Promise<void>;
}
type StdioServer = {
  transport: "stdio";
  command: string;
  args: string[];
  env: Record<string, string>;
  stderr: "ignore";
};
type LangChainClientClass = new (config: { mcpServers: Record<string, StdioServer> }) => LangChainClient;

/** The adapter's MultiServerMCPClient from `dir` (or this project), or null when it is not installed there. */
async function loadLangChain(dir: string | undefined): Promise<LangChainClientClass | null> {
  const require = createRequire(path.join(dir ?? process.cwd(), "package.json"));
  let entry: string;
  try {
    entry = require.resolve("@langchain/mcp-adapters");
  } catch {
    return null;
  }
  const adapters: { MultiServerMCPClient?: LangChainClientClass } = await import(pathToFileURL(entry).href);
  return adapters.MultiServerMCPClient ?? null;
}

type ContentBlock = { type?: unknown; text?: unknown } & Record<string, unknown>;

/** A ToolMessage's content as a chat model reads it: a string as is; blocks by their text and any other fields. */
function messageChars(content: unknown): number {
  if (typeof content === "string") return content.length;
  const blocks = Array.isArray(content) ? (content as ContentBlock[]) : [];
  return blocks.reduce((sum, { type: _type, text, ...extra }) => {
    const extraChars = Object.keys(extra).length > 0 ? JSON.stringify(extra).length : 0;
    return sum + (typeof text === "string" ? text.length : 0) + extraChars;
  }, 0);
}

async function langChainRow(env: Record<string, string>, bridge: string): Promise<Row> {
  const client = "@langchain/mcp-adapters: ToolMessage.content";
  const MultiServerMCPClient = await loadLangChain(stringFlag("langchain-dir"));
  if (!MultiServerMCPClient) return { client, chars: null, note: "not installed: pass --langchain-dir" };
  const langchain = new MultiServerMCPClient({
    mcpServers: {
      searchmux: {
        transport: "stdio",
        command: process.execPath,
        args: [bridge, "mcp"],
        env,
        stderr: "ignore",
      },
    },
  });
  try {
    const tool = (await langchain.getTools()).find((candidate) => candidate.name === "web_search");
    if (!tool) throw new Error("the bridge lists no web_search");
    const message = await tool.invoke({ name: tool.name, args, id: "call-1", type: "tool_call" });
    const shape = typeof message.content === "string" ? "one string" : "content blocks";
    return { client, chars: messageChars(message.content), note: shape };
  } finally {
    await langchain.close();
  }
}

async function main() {
  const cli = mkdtempSync(path.join(tmpdir(), "smx-bench-cli-"));
  await compileCli(cli);
  const bridge = path.join(cli, "searchmux.mjs");
  const fake = await startFakeProviders();
  for (const provider of PROVIDERS) fake.setScenario(provider, { results: providerResults(provider) });
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "",
    ...fakeProviderEnv(fake.url),
    BRAVE_API_KEY: "bench",
    TAVILY_API_KEY: "bench",
  };
  const sdk = new Client({ name: "mcp-result-size", version: "1.0.0" });
  try {
    await sdk.connect(
      new StdioClientTransport({ command: process.execPath, args: [bridge, "mcp"], env, stderr: "ignore" }),
    );
    await sdk.listTools(); // so the client validates structuredContent against the output schema
    const result = await sdk.callTool({ name: "web_search", arguments: args });
    const returned = (result.structuredContent as { results: unknown[] } | undefined)?.results.length;
    const blocks = (result.content as unknown[]).length;
    const rows: Row[] = [
      {
        client: "text blocks only (Gemini CLI, Open WebUI)",
        chars: textOf(result).length,
        note: `${blocks} block(s)`,
      },
      {
        client: "structuredContent only (Claude Code, Codex)",
        chars: structuredFirst(result).length,
        note: "JSON",
      },
      await langChainRow(env, bridge),
    ];
    console.log(`web_search "${query}", ${returned ?? "?"} results\n`);
    for (const { client, chars, note } of rows) {
      const perResult = chars === null || !returned ? "—" : Math.round(chars / returned).toLocaleString("en");
      const total = chars === null ? "—" : chars.toLocaleString("en");
      console.log(
        `${client.padEnd(48)} ${total.padStart(7)} chars  ${perResult.padStart(5)} / result  ${note}`,
      );
    }
  } finally {
    await sdk.close();
    await fake.close();
    rmSync(cli, { recursive: true, force: true });
  }
}

await main();
