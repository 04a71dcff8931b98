#!/usr/bin/env node
/**
 * `npx searchmux mcp`: the stdio MCP bridge (lib/mcp/stdio), compiled to dist/searchmux.mjs by
 * `npm run build:cli` (scripts/build-cli.mjs), which package.json's `bin` points at. Writes nothing to
 * stdout but protocol messages.
 */
import { Console } from "node:console";

const USAGE = `usage: searchmux mcp

MCP over stdio. With SEARCHMUX_URL (and SEARCHMUX_TOKEN) it forwards to that Searchmux server;
without it, it runs the search engine locally with the provider keys in the environment.
`;

const [command, ...rest] = process.argv.slice(2);
if (command !== "mcp" || rest.length > 0) {
  const help = command === "--help" || command === "-h" || command === "help";
  process.stderr.write(USAGE);
  process.exit(help ? 0 : 2);
}

// Stdout carries MCP messages only: whatever any module logs goes to stderr, from the first import on
// (the bridge is imported only now, so its modules load after this line).
globalThis.console = new Console({ stdout: process.stderr, stderr: process.stderr });
const { runBridge } = await import("@/lib/mcp/stdio/main");
// Provider connections and timers must not keep a closed bridge alive.
process.exit(await runBridge(process.env));
