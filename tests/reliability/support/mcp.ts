/**
 * MCP from the reliability tests: the official SDK client over Streamable HTTP for single calls, and the
 * raw JSON-RPC `tools/call` POST (what that client sends for a call on this stateless server) for load
 * generators, which cannot drive the SDK client.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

export async function connectMcp(baseUrl: string, token: string): Promise<Client> {
  const client = new Client({ name: "searchmux-reliability", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${baseUrl}/api/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${token}` } },
    }),
  );
  return client;
}

export const mcpHeaders = (token: string) => ({
  authorization: `Bearer ${token}`,
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
  "mcp-protocol-version": "2025-06-18",
});

/** Headers of a 2026-07-28 request: the revision, and the method (and tool) the body carries. */
export const modernMcpHeaders = (token: string, method: string, name?: string) => ({
  ...mcpHeaders(token),
  "mcp-protocol-version": "2026-07-28",
  "mcp-method": method,
  ...(name && { "mcp-name": name }),
});

/** A 2026-07-28 `tools/call`: no handshake before it, the revision and client in its own `_meta`. */
export function modernToolCallBody(
  name: string,
  args: Record<string, unknown>,
  id: number | string = 1,
): string {
  const _meta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": { name: "searchmux-bench", version: "1.0.0" },
    "io.modelcontextprotocol/clientCapabilities": {},
  };
  return JSON.stringify({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name, arguments: args, _meta },
  });
}

export function toolCallBody(name: string, args: Record<string, unknown>, id: number | string = 1): string {
  return JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } });
}

const TRACE_ID = /"trace_id":"([0-9a-f-]{36})"/;

/** The trace id a REST JSON body or an MCP result's structuredContent carries, if any. */
export function traceIdIn(body: string): string | undefined {
  return TRACE_ID.exec(body)?.[1];
}

/** Text of a tool result's content blocks. */
export function resultText(result: unknown): string {
  const content = typeof result === "object" && result !== null && "content" in result ? result.content : [];
  return Array.isArray(content) ? content.map((c: { text?: string }) => c.text ?? "").join("\n") : "";
}
