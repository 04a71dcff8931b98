/**
 * MCP over Streamable HTTP, stateless, in two protocol eras: a request carrying the 2026-07-28 `_meta`
 * envelope goes to the v2 SDK's handler (revision-2026-07-28.ts); everything else (the 2025-03-26, 2025-06-18
 * and 2025-11-25 revisions, with their initialize handshake, and tasks in 2025-11-25 only) to the v1 SDK
 * (revision-2025.ts), where every POST gets its own server and transport, built for the request's revision. Both are authenticated by
 * withToken (the token needs the `mcp` scope, whether it comes as a Bearer header or in the URL; an OAuth
 * access token must have been issued for this endpoint, see resource-metadata.ts). No
 * session ids are issued, so GET (a standalone SSE stream) and DELETE (ending a session) answer 405, and a
 * request carrying a session id answers 404 as an unknown session would. An answer streams as SSE when the
 * call asked for progress or is slow (keep-alive comments), else it is one JSON body; either way it carries
 * exactly one JSON-RPC response per request. A tools/call
 * naming a tool outside the token's scopes answers 403 with an insufficient_scope challenge, so an OAuth
 * client can step up to the wider scope (MCP authorization, "Scope Challenge Handling"); one outside the
 * connection's profile or the URL's `?tools=` answers 403 too, without a challenge (no scope would help).
 * `?tools=a,b` narrows what the connection lists and may call to those of its tools; a name no tool has
 * answers 400 on every request, initialize included, so a typo is seen at once.
 */
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { isLegacyRequest } from "@modelcontextprotocol/server";
import { MAX_BODY_BYTES, readBody } from "@/lib/api/body";
import { errorResponse } from "@/lib/api/errors";
import { foreignRequestReason } from "@/lib/api/request-guard";
import { keepWorkingAfterResponse } from "@/lib/api/research-work";
import { insufficientScope, type TokenRefusal, type TokenRequest, withToken } from "@/lib/api/with-token";
import { config } from "@/lib/config";
import type { RouteTemplate } from "@/lib/observability/http-metrics";
import type { TenantContext } from "@/lib/pipeline/context";
import { ServiceError } from "@/lib/pipeline/errors";
import { buildServer } from "./build-server";
import { bearerChallenge, mcpResource } from "./resource-metadata";
import { requestRevision, revision2025, revisionHasTasks } from "./revision-2025";
import { authInfoFor, mcpHandler } from "./revision-2026-07-28";
import { answerStreams, refusedCall, TOOLS, touchesJobs } from "./tools";

type RouteContext<P> = { params: Promise<P> };

function jsonRpcError(
  status: number,
  message: string,
  headers?: Record<string, string>,
  id: string | number | null = null,
): Response {
  return Response.json(
    { jsonrpc: "2.0", error: { code: status === 404 ? -32001 : -32000, message }, id },
    { status, headers },
  );
}

/** The body, read once with the REST routes' cap; undefined without one (the transport answers that). */
async function readMcpBody(request: Request): Promise<string | Response | undefined> {
  if (!request.body) return undefined;
  try {
    return (await readBody(request)).toString("utf8");
  } catch (error) {
    if (error instanceof ServiceError && error.code === "payload_too_large")
      return jsonRpcError(413, error.message);
    throw error;
  }
}

function parsedJson(body: string | undefined): unknown {
  try {
    return body && JSON.parse(body);
  } catch {
    return undefined; // the transport answers the parse error
  }
}

/** Names at most this many, each cut, in an error: a hostile query string may hold thousands. */
const quoted = (names: readonly string[]) =>
  names
    .slice(0, 10)
    .map((name) => `'${name.slice(0, 40)}'`)
    .join(", ");

/**
 * The connection narrowed by the URL's `?tools=a,b` (repeatable): only those of the tools its scopes and
 * profile allow. It never widens: a named tool the connection may not call stays out. Names no tool has
 * answer 400.
 */
function narrowedByUrl(ctx: TenantContext, url: URL): TenantContext | Response {
  if (!url.searchParams.has("tools")) return ctx;
  const asked = [
    ...new Set(
      url.searchParams
        .getAll("tools")
        .flatMap((value) => value.split(","))
        .map((name) => name.trim())
        .filter(Boolean),
    ),
  ];
  if (asked.length === 0)
    return jsonRpcError(400, "?tools= names no tools: name some (?tools=web_search,fetch) or leave it out");
  const unknown = asked.filter((name) => !TOOLS.some((tool) => tool.name === name));
  if (unknown.length > 0) {
    return jsonRpcError(
      400,
      `?tools= names unknown tools: ${quoted(unknown)}; the tools are ${TOOLS.map((tool) => tool.name).join(", ")}`,
    );
  }
  const profiled = ctx.profile?.tools;
  const tools = asked.filter((name) => profiled?.includes(name) ?? true);
  return { ...ctx, profile: { ...ctx.profile, tools } };
}

async function serveMcp<P>(
  request: Request,
  token: TokenRequest<P>,
  challenge: (refusal: TokenRefusal) => string,
): Promise<Response> {
  const ctx = narrowedByUrl(token.ctx, new URL(request.url));
  if (ctx instanceof Response) return ctx;
  if (request.headers.has("mcp-session-id")) {
    return jsonRpcError(
      404,
      "Session not found: this server issues no sessions; initialize without Mcp-Session-Id",
    );
  }
  // Read here so a call outside the token's scopes is refused with HTTP 403 before the SDK would answer
  // it as an unknown tool (the tool is not listed for this token); the transport then gets the same bytes.
  const body = await readMcpBody(request);
  if (body instanceof Response) return body;
  const message = parsedJson(body);
  const refusal = refusedCall(message, ctx);
  if (refusal?.scope) {
    return jsonRpcError(
      403,
      `this token lacks the '${refusal.scope}' scope`,
      { "www-authenticate": challenge(insufficientScope(ctx.scopes, refusal.scope)) },
      refusal.id,
    );
  }
  if (refusal) {
    return jsonRpcError(
      403,
      `this connection's profile or ?tools= does not include the '${refusal.tool}' tool`,
      undefined,
      refusal.id,
    );
  }
  if (touchesJobs(message)) keepWorkingAfterResponse();
  const forwarded = body === undefined ? request : new Request(request, { body });
  if (!(await isLegacyRequest(forwarded, message, { maxRequestBodySize: MAX_BODY_BYTES }))) {
    return mcpHandler().fetch(forwarded, { authInfo: authInfoFor(ctx) });
  }
  const revision = requestRevision(message, forwarded.headers.get("mcp-protocol-version"));
  const server = buildServer(ctx, revision2025, { tasks: revisionHasTasks(revision) });
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    maxRequestBodySize: MAX_BODY_BYTES,
    enableJsonResponse: !answerStreams(message),
  });
  await server.connect(transport);
  return transport.handleRequest(forwarded);
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
    const challenge = (refusal: TokenRefusal) => bearerChallenge(request, publicUrl, refusal);
    const authenticated = withToken<P>((req, token) => serveMcp(req, token, challenge), {
      route: template,
      scope: "mcp",
      surface: "mcp",
      tokenFrom,
      challenge,
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
