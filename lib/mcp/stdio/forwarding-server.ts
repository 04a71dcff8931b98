/**
 * The stdio bridge's forwarding mode: a stdio MCP server that shows a Searchmux server's tools and
 * resources, reached over Streamable HTTP at `<SEARCHMUX_URL>/api/mcp` with the token as a Bearer header
 * (the official SDK client). Lists, calls and reads pass through unchanged: the remote validates,
 * authorizes, charges and traces. Progress is relayed when the local client asked for it, and the
 * remote's heartbeats keep a long call (answer: up to two minutes) from timing out; a local
 * cancellation cancels the remote call.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import type { RequestHandlerExtra, RequestOptions } from "@modelcontextprotocol/sdk/shared/protocol.js";
import {
  CallToolRequestSchema,
  CallToolResultSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type ServerNotification,
  type ServerRequest,
} from "@modelcontextprotocol/sdk/types.js";
import packageJson from "@/package.json";
import { BridgeRefused, EXIT_CONFIGURATION, EXIT_REFUSED } from "./refused";

/** A call gets the remote's own deadline (answer: 120 s) plus slack; heartbeats reset it. */
const CALL_TIMEOUT_MS = 150_000;

type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** `https://host` and `https://host/api/mcp` both mean the MCP endpoint. */
export function mcpEndpoint(base: string): URL {
  if (!URL.canParse(base)) throw new BridgeRefused(`SEARCHMUX_URL is not a URL: ${base}`, EXIT_CONFIGURATION);
  const url = new URL(base);
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    throw new BridgeRefused(`SEARCHMUX_URL must be http(s): ${base}`, EXIT_CONFIGURATION);
  }
  if (!/\/api\/mcp\/?$/.test(url.pathname)) url.pathname = `${url.pathname.replace(/\/+$/, "")}/api/mcp`;
  return url;
}

/** The initialized client of the remote server; a refused token or an unreachable server throws BridgeRefused. */
export async function connectRemote(endpoint: URL, token: string): Promise<Client> {
  const client = new Client({ name: "searchmux-stdio-bridge", version: packageJson.version });
  const transport = new StreamableHTTPClientTransport(endpoint, {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  try {
    await client.connect(transport);
    return client;
  } catch (error) {
    await client.close().catch(() => {});
    throw new BridgeRefused(describeFailure(endpoint, error), EXIT_REFUSED);
  }
}

export function createForwardingServer(remote: Client, endpoint: URL): Server {
  const capabilities = remote.getServerCapabilities() ?? {};
  const server = new Server(
    remote.getServerVersion() ?? { name: "searchmux", version: packageJson.version },
    {
      capabilities: {
        ...(capabilities.tools ? { tools: {} } : {}),
        ...(capabilities.resources ? { resources: {} } : {}),
      },
      instructions: remote.getInstructions(),
    },
  );
  const forward = async <T>(request: () => Promise<T>): Promise<T> => {
    try {
      return await request();
    } catch (error) {
      if (error instanceof McpError) throw error;
      throw new McpError(ErrorCode.InternalError, describeFailure(endpoint, error));
    }
  };

  if (capabilities.tools) {
    server.setRequestHandler(ListToolsRequestSchema, (request, extra) =>
      forward(() => remote.listTools(request.params, { signal: extra.signal })),
    );
    // Sent as a raw request: the local client validates structured content against the schemas itself.
    server.setRequestHandler(CallToolRequestSchema, (request, extra) =>
      forward(() =>
        remote.request({ method: "tools/call", params: request.params }, CallToolResultSchema, relay(extra)),
      ),
    );
  }
  if (capabilities.resources) {
    server.setRequestHandler(ListResourcesRequestSchema, (request, extra) =>
      forward(() => remote.listResources(request.params, { signal: extra.signal })),
    );
    server.setRequestHandler(ListResourceTemplatesRequestSchema, (request, extra) =>
      forward(() => remote.listResourceTemplates(request.params, { signal: extra.signal })),
    );
    server.setRequestHandler(ReadResourceRequestSchema, (request, extra) =>
      forward(() => remote.readResource(request.params, { signal: extra.signal })),
    );
  }
  return server;
}

/**
 * Options for a forwarded call: always ask the remote for progress (its heartbeats reset the timeout),
 * and pass it on under the local client's token when the local client asked for it.
 */
function relay(extra: Extra): RequestOptions {
  const progressToken = extra._meta?.progressToken;
  return {
    signal: extra.signal,
    timeout: CALL_TIMEOUT_MS,
    resetTimeoutOnProgress: true,
    onprogress: (progress) => {
      if (progressToken === undefined) return;
      extra
        .sendNotification({ method: "notifications/progress", params: { ...progress, progressToken } })
        .catch(() => {});
    },
  };
}

function describeFailure(endpoint: URL, error: unknown): string {
  const where = endpoint.origin;
  if (error instanceof StreamableHTTPError && error.code === 401) {
    return `${where} refused the token (HTTP 401): check SEARCHMUX_TOKEN (revoked, expired or mistyped)`;
  }
  if (error instanceof StreamableHTTPError && error.code === 403) {
    return `${where} refused the request (HTTP 403): the token needs the mcp scope, and the server may refuse this origin`;
  }
  const detail = error instanceof Error ? error.message : String(error);
  return `cannot reach Searchmux at ${endpoint.href}: ${detail}`;
}
