/**
 * Transport: the one wrapper every token-authenticated route goes through (REST, MCP, compatibility
 * endpoints). In order: verify the token (401 with WWW-Authenticate; a token not already known to be
 * valid is first refused for an IP with too many failed authentications), apply the per-token rate limit (429 with Retry-After and RateLimit headers), check
 * the route's scope (403), run the handler, and map whatever it throws to `{error: {code, message}}`.
 */
import { randomUUID } from "node:crypto";
import { log } from "../observability/logger";
import { metrics } from "../observability/metrics";
import { inRequestScope, type RequestScope } from "../observability/request-scope";
import type { Scope, TenantContext } from "../services/context";
import { pendingWritesSettled, platform } from "../services/platform";
import { countFailedAuth, failedAuthBlocked, limitToken } from "../services/rate-limit/limits";
import type { RateLimitDecision } from "../services/rate-limit/sliding-window";
import { shuttingDown } from "../services/shutdown";
import { cachedToken, lookUpToken, type VerifiedToken } from "../services/tokens/verify-token";
import type { Surface } from "../services/traces/trace-sink";
import { afterResponse } from "./after-response";
import { errorResponse, toErrorResponse } from "./errors";

export interface TokenRequest<P> {
  ctx: TenantContext;
  token: VerifiedToken;
  requestId: string;
  params: P;
}

export interface WithTokenOptions<P> {
  /** The scope the route needs; any valid token when omitted. */
  scope?: Scope;
  /** Where the token comes from; `Authorization: Bearer` by default. */
  tokenFrom?: (request: Request, params: P) => string | null;
  /** Extra headers on a 401 (MCP adds its resource metadata). */
  unauthorizedHeaders?: Record<string, string>;
  /** Recorded on the call's traces; REST unless the route says otherwise. */
  surface?: Surface;
}

export const bearerToken = (request: Request): string | null =>
  /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get("authorization") ?? "")?.[1] ?? null;

/** The client address as the platform's proxy reports it (first X-Forwarded-For hop). */
function clientIp(request: Request): string {
  const forwarded = request.headers.get("x-forwarded-for")?.split(",")[0]?.trim();
  return forwarded || request.headers.get("x-real-ip") || "unknown";
}

function rateLimitHeaders(decision: RateLimitDecision): Record<string, string> {
  return {
    "ratelimit-policy": `${decision.limit};w=60`,
    ratelimit: `limit=${decision.limit}, remaining=${decision.remaining}, reset=${decision.reset}`,
  };
}

export function withToken<P = Record<string, never>>(
  handler: (request: Request, context: TokenRequest<P>) => Promise<Response>,
  options: WithTokenOptions<P> = {},
) {
  const run = async (
    request: Request,
    route: { params: Promise<P> },
    scope: RequestScope,
  ): Promise<Response> => {
    const { requestId } = scope;
    try {
      const base = await platform();
      const ip = clientIp(request);
      const params = await route.params;
      const raw = (options.tokenFrom ?? bearerToken)(request, params);
      // A token known to be valid is not a guess: only anything else meets the failed-auth block, which
      // must come before the database is asked about an unknown token.
      const cached = raw ? await cachedToken({ ctx: base, input: { token: raw } }) : null;
      let token = cached ?? null;
      if (!token) {
        if (await failedAuthBlocked(base, ip)) {
          return errorResponse(
            "rate_limited",
            "too many failed authentications from this address",
            undefined,
            {
              "retry-after": "60",
            },
          );
        }
        // KV already knows an invalid token: the database is asked only about ones it has not seen.
        if (raw && cached === undefined) token = await lookUpToken({ ctx: base, input: { token: raw } });
      }
      if (!token) {
        await countFailedAuth(base, ip);
        return errorResponse(
          "unauthorized",
          raw ? "invalid, expired or revoked token" : "an API token is required",
          undefined,
          {
            "www-authenticate": 'Bearer realm="searchmux"',
            ...options.unauthorizedHeaders,
          },
        );
      }
      const limit = await limitToken(base, token);
      const limitHeaders = rateLimitHeaders(limit);
      if (!limit.ok) {
        return errorResponse(
          "rate_limited",
          `rate limit of ${limit.limit} requests per minute exceeded`,
          undefined,
          {
            ...limitHeaders,
            "retry-after": String(limit.retryAfter),
          },
        );
      }
      if (options.scope && !token.scopes.includes(options.scope)) {
        return errorResponse(
          "forbidden",
          `this token lacks the '${options.scope}' scope`,
          undefined,
          limitHeaders,
        );
      }
      scope.tenantId = token.tenantId;
      const ctx: TenantContext = {
        ...base,
        actor: { kind: "token", tokenId: token.tokenId, tokenName: token.name },
        tenantId: token.tenantId,
        scopes: token.scopes,
        surface: options.surface ?? "rest",
      };
      // The call's trace (success or failure) is written once the response is on its way.
      afterResponse(pendingWritesSettled);
      const response = await handler(request, { ctx, token, requestId, params });
      for (const [name, value] of Object.entries(limitHeaders)) response.headers.set(name, value);
      return response;
    } catch (error) {
      return toErrorResponse(error, requestId);
    }
  };

  return async (request: Request, route: { params: Promise<P> }): Promise<Response> => {
    const started = performance.now();
    const scope: RequestScope = { requestId: randomUUID() };
    const response = await inRequestScope(scope, () => run(request, route, scope));
    response.headers.set("x-request-id", scope.requestId);
    if (shuttingDown()) response.headers.set("connection", "close");
    observeRequest(request, response.status, performance.now() - started, scope);
    return response;
  };
}

/** The route as a metric label and log field: no token (MCP URL tokens) and no ids in it. */
function routeLabel(request: Request): string {
  return new URL(request.url).pathname
    .replace(/\/t\/[^/]+/, "/t/[token]")
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, "[id]");
}

function observeRequest(request: Request, status: number, durationMs: number, scope: RequestScope): void {
  const route = routeLabel(request);
  const m = metrics();
  m.httpRequests.inc({ route, status: String(status) });
  m.httpRequestSeconds.observe({ route }, durationMs / 1000);
  log().info(
    {
      request_id: scope.requestId,
      tenant_id: scope.tenantId,
      method: request.method,
      route,
      status,
      duration_ms: Math.round(durationMs),
    },
    "request",
  );
}
