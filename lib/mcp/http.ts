/**
 * MCP over Streamable HTTP, stateless: every POST gets its own server and transport, authenticated by
 * withToken (the token needs the `mcp` scope, whether it comes as a Bearer header or in the URL; an OAuth
 * access token must have been issued for this endpoint, see resource-metadata.ts). No
 * session ids are issued, so GET (a standalone SSE stream) and DELETE (ending a session) answer 405, and a
 * request carrying a session id answers 404 as an unknown session would. Responses stream as SSE so slow
 * calls can send progress and keep-alive frames; each carries exactly one JSON-RPC response.
 */
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { MAX_BODY_BYTES } from "@/lib/api/body";
import { errorResponse } from "@/lib/api/errors";
import { type TokenRequest, withToken } from "@/lib/api/with-token";
import { config } from "@/lib/config";
import type { RouteTemplate } from "@/lib/observability/http-metrics";
import { foreignRequestReason } from "./request-guard";
import { bearerChallenge, mcpResource } from "./resource-metadata";
import { createMcpServer } from "./server";

type RouteContext<P> = { params: Promise<P> };

function jsonRpcError(status: number, message: string, headers?: Record<string, string>): Response {
  return Response.json(
    { jsonrpc: "2.0", error: { code: status === 404 ? -32001 : -32000, message }, id: null },
    { status, headers },
  );
}

async function serveMcp<P>(request: Request, { ctx }: TokenRequest<P>): Promise<Response> {
  if (request.headers.has("mcp-session-id")) {
    return jsonRpcError(
      404,
      "Session not found: this server issues no sessions; initialize without Mcp-Session-Id",
    );
  }
  const server = createMcpServer(ctx);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    maxRequestBodySize: MAX_BODY_BYTES,
  });
  await server.connect(transport);
  return transport.handleRequest(request);
}

/**
 * POST handler of the route whose template is `template` (the metric label); `tokenFrom` reads the token from
 * elsewhere than the Authorization header (the URL form).
 */
export function mcpPost<P>(
  template: RouteTemplate,
  tokenFrom?: (request: Request, params: P) => string | null,
) {
  return async (request: Request, route: RouteContext<P>): Promise<Response> => {
    const { auth, allowedHosts } = config();
    const publicUrl = auth.url;
    const foreign = foreignRequestReason(request, { publicUrl, allowedHosts });
    if (foreign) return errorResponse("forbidden", foreign);
    const authenticated = withToken<P>(serveMcp, {
      route: template,
      scope: "mcp",
      surface: "mcp",
      tokenFrom,
      challenge: (refusal) => bearerChallenge(request, publicUrl, refusal),
      resource: () => mcpResource(request, publicUrl),
    });
    return authenticated(request, route);
  };
}

export async function mcpMethodNotAllowed(): Promise<Response> {
  return jsonRpcError(405, "Method not allowed: this server is stateless; send JSON-RPC messages with POST", {
    allow: "POST",
  });
}
