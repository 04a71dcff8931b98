/**
 * MCP from a spec: the official SDK client over Streamable HTTP, and raw JSON-RPC POSTs for what the
 * client hides (status codes, headers, older protocol versions, request ids).
 */
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernTransport,
} from "@modelcontextprotocol/client";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { BASE_URL } from "./e2e-server";

export const MCP_URL = `${BASE_URL}/api/mcp`;

/** Without a token the URL must carry one (the `/api/mcp/t/<token>` form). */
export async function connectClient(url: string, token?: string): Promise<Client> {
  const client = new Client({ name: "searchmux-e2e", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: token ? { headers: { authorization: `Bearer ${token}` } } : {},
  });
  await client.connect(transport);
  return client;
}

/** A client of the 2026-07-28 revision (the v2 SDK), pinned to it: no fallback to the 2025 handshake. */
export async function connectModernClient(url: string, token: string): Promise<ModernClient> {
  const client = new ModernClient(
    { name: "searchmux-e2e-modern", version: "1.0.0" },
    { versionNegotiation: { mode: { pin: "2026-07-28" } } },
  );
  await client.connect(
    new ModernTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
  );
  return client;
}

interface JsonRpcMessage {
  jsonrpc: string;
  id?: number | string | null;
  method?: string;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
  params?: Record<string, unknown>;
}

export interface RawReply {
  status: number;
  headers: Headers;
  text: string;
  /** Every JSON-RPC message in the body: the SSE events' data, or the JSON body itself. */
  messages: JsonRpcMessage[];
}

/** The data of each SSE event; comment lines (keep-alives) and empty events are skipped. */
function sseMessages(text: string): JsonRpcMessage[] {
  return text
    .split(/\r?\n\r?\n/)
    .map((event) =>
      event
        .split(/\r?\n/)
        .filter((line) => line.startsWith("data:"))
        .map((line) => line.slice(5).trimStart())
        .join("\n"),
    )
    .filter((data) => data !== "")
    .map((data) => JSON.parse(data) as JsonRpcMessage);
}

export async function postRaw(
  body: unknown,
  headers: Record<string, string> = {},
  url = MCP_URL,
): Promise<RawReply> {
  const response = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...headers,
    },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await response.text();
  const type = response.headers.get("content-type") ?? "";
  const messages = type.includes("text/event-stream")
    ? sseMessages(text)
    : type.includes("json") && text
      ? [JSON.parse(text) as JsonRpcMessage]
      : [];
  return { status: response.status, headers: response.headers, text, messages };
}

export const initializeRequest = (protocolVersion: string, id = 1) => ({
  jsonrpc: "2.0",
  id,
  method: "initialize",
  params: { protocolVersion, capabilities: {}, clientInfo: { name: "raw-e2e", version: "1.0.0" } },
});

export const toolCall = (name: string, args: Record<string, unknown>, id: number) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name, arguments: args },
});
