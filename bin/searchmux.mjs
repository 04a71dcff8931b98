#!/usr/bin/env node
/**
 * `npx searchmux mcp`: the stdio MCP bridge (lib/mcp/stdio). The sources are TypeScript with the
 * project's path aliases, so they are loaded through tsx's scoped loader with this package's tsconfig,
 * whatever the working directory is. Writes nothing to stdout but protocol messages.
 */
import { Console } from "node:console";
import { fileURLToPath } from "node:url";

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

// Stdout carries MCP messages only: whatever any module logs goes to stderr, from the first import on.
globalThis.console = new Console({ stdout: process.stderr, stderr: process.stderr });

let tsImport;
try {
  ({ tsImport } = await import("tsx/esm/api"));
} catch {
  process.stderr.write("searchmux: tsx is not installed; run `npm ci` in the searchmux checkout\n");
  process.exit(1);
}

const { runBridge } = await tsImport("../lib/mcp/stdio/main.ts", {
  parentURL: import.meta.url,
  tsconfig: fileURLToPath(new URL("../tsconfig.json", import.meta.url)),
});
// Provider connections and timers must not keep a closed bridge alive.
process.exit(await runBridge(process.env));
