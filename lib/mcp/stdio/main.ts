/**
 * `npx searchmux mcp`: MCP over stdio for local clients that cannot reach a remote server.
 * - SEARCHMUX_URL set: forwarding mode, every request goes to that Searchmux with SEARCHMUX_TOKEN.
 * - SEARCHMUX_URL unset: local mode, the engine runs in this process with the keys in the environment.
 * Stdout carries protocol messages only (scripts/searchmux.ts sends the console to stderr before any
 * module loads). Resolves with the exit code once the client closes stdin: 0, 1 when the remote refused or
 * could not be reached, 2 for a configuration error.
 */
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import pino from "pino";
import { createLogger, replaceLogger } from "@/lib/observability/logger";
import type { Env } from "@/lib/pipeline/capabilities";
import { connectRemote, createForwardingServer, mcpEndpoint } from "./forwarding-server";
import { createLocalMcpServer } from "./local-server";
import { BridgeRefused, EXIT_CONFIGURATION } from "./refused";

export async function runBridge(env: Env): Promise<number> {
  // The process logger writes to stdout by default; here stdout is the protocol's.
  replaceLogger(createLogger(pino.destination({ dest: 2, sync: false })));
  let server: Server | McpServer;
  try {
    server = await createServer(env);
  } catch (error) {
    if (!(error instanceof BridgeRefused)) throw error;
    console.error(`searchmux: ${error.message}`);
    return error.exitCode;
  }
  const closed = new Promise<void>((resolve) => process.stdin.once("end", resolve).once("close", resolve));
  await server.connect(new StdioServerTransport());
  await closed;
  await server.close();
  return 0;
}

async function createServer(env: Env): Promise<Server | McpServer> {
  const url = env.SEARCHMUX_URL?.trim();
  if (!url) {
    console.error("searchmux: local mode (no SEARCHMUX_URL): providers from this environment, no budgets");
    return createLocalMcpServer(env);
  }
  const token = env.SEARCHMUX_TOKEN?.trim();
  if (!token) {
    throw new BridgeRefused(
      "SEARCHMUX_TOKEN is not set: create a token with the mcp scope (dashboard, or `npm run smx -- token create`) and pass it in the client's env",
      EXIT_CONFIGURATION,
    );
  }
  const endpoint = mcpEndpoint(url);
  const remote = await connectRemote(endpoint, token);
  console.error(`searchmux: forwarding to ${endpoint.href}`);
  const server = createForwardingServer(remote, endpoint);
  server.onclose = () => void remote.close();
  return server;
}
