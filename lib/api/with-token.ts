/**
 * Transport: the one wrapper every token-authenticated route goes through (REST, MCP, compatibility
 * endpoints). In order, one step each: authenticate the token (401 with WWW-Authenticate; 429 when the
 * client address is over the failed-authentication limit, which never refuses a token that verifies),
 * refuse a token issued for another resource (401: an OAuth access token works only where it was issued
 * for), apply the per-token rate limit (429 with Retry-After and RateLimit headers), check the route's
 * scope (403), record the token's use, run the handler (both timed in Server-Timing), and map whatever it
 * throws to `{error: {code, message}}`. A token this process saw verify has its rate-limit count, and for
 * tool routes the result cache a repeated call read (cacheReadAhead), sent in its check's KV round trip.
 */
import { randomUUID } from "node:crypto";
import { config } from "@/lib/config";
import { observeRequest, type RouteTemplate } from "@/lib/observability/http-metrics";
import { inRequestScope, type RequestScope } from "@/lib/observability/request-scope";
import type { Surface } from "@/lib/pipeline/capabilities";
import type { Platform, Scope, TenantContext } from "@/lib/pipeline/context";
import { pendingWritesSettled, platform } from "@/lib/pipeline/platform";
import { limitToken } from "@/lib/pipeline/rate-limit/limits";
import type { RateLimitDecision } from "@/lib/pipeline/rate-limit/sliding-window";
import { shuttingDown } from "@/lib/pipeline/shutdown";
import { type Authentication, authenticateToken } from "@/lib/services/tokens/authenticate-token";
import { recordTokenUse, type VerifiedToken } from "@/lib/services/tokens/verify-token";
import { afterResponse } from "./after-response";
import { type CacheReadAhead, cacheReadAhead } from "./cache-read-ahead";
import { clientAddress } from "./client-address";
import { errorResponse, toErrorResponse } from "./errors";

export interface TokenRequest<P> {
  ctx: TenantContext;
  token: VerifiedToken;
  requestId: string;
  params: P;
  /** The body, when the cache read-ahead already read it (the request's own is then used up). */
  body?: string;
}

export interface WithTokenOptions<P> {
  /** The handler's route template (its path under app/), the metric label and log field; never the raw path. */
  route: RouteTemplate;
  /** The scope the route needs; any valid token when omitted. */
  scope?: Scope;
  /** Where the token comes from; `Authorization: Bearer` by default. */
  tokenFrom?: (request: Request, params: P) => string | null;
  /** The WWW-Authenticate challenge of a 401 or a missing scope's 403 (MCP names its resource metadata). */
  challenge?: (refusal: TokenRefusal) => string;
  /**
   * The resource (RFC 8707) the route serves. A token issued for a resource (an OAuth access token's
   * audience) is accepted only by routes serving that one, so without this by none (RFC 8707; MCP
   * authorization: a server validates that a token was issued for it). Tokens people create have no
   * audience and are accepted everywhere their scopes allow.
   */
  resource?: (request: Request) => string;
  /** Recorded on the call's traces; REST unless the route says otherwise. */
  surface?: Surface;
  /** Read the result cache in the token check's round trip when the call repeats one (cacheReadAhead). */
  readAhead?: boolean;
}

/** Why a request was refused, for its challenge (RFC 6750 §3). */
export interface TokenRefusal {
  /** Absent when no token was presented. */
  error?: "invalid_token" | "insufficient_scope";
  /** The scopes that would do (with insufficient_scope: the token's and the one the route needs). */
  scope?: string;
}

/**
 * A token that lacks `needed`: the scopes to step up to are the token's and the missing one (MCP
 * authorization's recommended approach, so the client keeps what it was granted).
 */
export const insufficientScope = (scopes: readonly Scope[], needed: Scope): TokenRefusal => ({
  error: "insufficient_scope",
  scope: [...scopes, needed].join(" "),
});

/** RFC 6750's challenge: the realm, and the error with its scope when a token was refused. */
function defaultChallenge({ error, scope }: TokenRefusal): string {
  const params = ['realm="searchmux"'];
  if (error) params.push(`error="${error}"`);
  if (error === "insufficient_scope" && scope) params.push(`scope="${scope}"`);
  return `Bearer ${params.join(", ")}`;
}

export const bearerToken = (request: Request): string | null =>
  /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get("authorization") ?? "")?.[1] ?? null;

function rateLimitHeaders(decision: RateLimitDecision): Record<string, string> {
  return {
    "ratelimit-policy": `${decision.limit};w=60`,
    ratelimit: `limit=${decision.limit}, remaining=${decision.remaining}, reset=${decision.reset}`,
  };
}

/**
 * Where the server's time went (W3C Server-Timing): the token check with its rate limit and cache
 * read-ahead, then the call until its answer (or its stream) starts. The rest of what a client measures
 * is the framework and the network.
 */
function serverTiming(started: number, authorized: number, answered: number): string {
  return `auth;dur=${(authorized - started).toFixed(1)}, call;dur=${(answered - authorized).toFixed(1)}`;
}

type Challenge = (refusal: TokenRefusal) => string;
type Verified = Extract<Authentication, { token: VerifiedToken }>;

/**
 * Step 1: the presented token (`raw`) verified, its caller's read-ahead sent along, or the refusal: 401
 * with the challenge, 429 with Retry-After.
 */
async function authenticate(
  base: Platform,
  request: Request,
  raw: string | null,
  ahead: CacheReadAhead | undefined,
  challenge: Challenge,
): Promise<Verified | Response> {
  const auth = await authenticateToken({
    ctx: base,
    input: { token: raw, address: clientAddress(request.headers, base.env), alongside: ahead?.reads },
  });
  if (!("refused" in auth)) return auth;
  if (auth.refused === "unauthorized") {
    return errorResponse(
      "unauthorized",
      raw ? "invalid, expired or revoked token" : "an API token is required",
      undefined,
      { "www-authenticate": challenge(raw ? { error: "invalid_token" } : {}) },
    );
  }
  const message =
    auth.refused === "busy"
      ? "too many unverified tokens are being checked at once; retry shortly"
      : "too many failed authentications from this address";
  return errorResponse("rate_limited", message, undefined, { "retry-after": String(auth.retryAfter) });
}

/** Step 2: a token issued for another resource than the route's (`resource`) is refused, 401. */
function foreignAudience(
  token: VerifiedToken,
  resource: string | undefined,
  challenge: Challenge,
): Response | undefined {
  if (!token.audience || token.audience === resource) return undefined;
  return errorResponse(
    "unauthorized",
    `this token was issued for another resource (${token.audience}) and is accepted only there`,
    undefined,
    { "www-authenticate": challenge({ error: "invalid_token" }) },
  );
}

/**
 * Step 3: the per-token rate limit, counted with the token check when the check could (a token this
 * process saw verify): the RateLimit headers every later answer carries, or 429 with Retry-After.
 */
async function rateLimit(
  base: Platform,
  { token, limit }: Verified,
): Promise<Record<string, string> | Response> {
  const decision = limit ?? (await limitToken(base, token));
  const headers = rateLimitHeaders(decision);
  if (decision.ok) return headers;
  return errorResponse(
    "rate_limited",
    `rate limit of ${decision.limit} requests per minute exceeded`,
    undefined,
    { ...headers, "retry-after": String(decision.retryAfter) },
  );
}

/** Step 4: a token without the route's scope (`needed`) is refused, 403 with the step-up challenge. */
function missingScope(
  token: VerifiedToken,
  needed: Scope | undefined,
  limitHeaders: Record<string, string>,
  challenge: Challenge,
): Response | undefined {
  if (!needed || token.scopes.includes(needed)) return undefined;
  return errorResponse("forbidden", `this token lacks the '${needed}' scope`, undefined, {
    ...limitHeaders,
    "www-authenticate": challenge(insufficientScope(token.scopes, needed)),
  });
}

/**
 * Step 5: the authorized token's use recorded, and the handler's context. Only now does the token count
 * as used: a request refused above (rate limit, scope) leaves "last used" alone, so a leaked token
 * hammering the API or an agent calling what it may not does not look like a token in use; whatever the
 * handler then answers (an exhausted budget, bad input), the token did its job.
 */
function authorizedContext(
  base: Platform,
  token: VerifiedToken,
  kv: TenantContext["kv"],
  surface: Surface,
): TenantContext {
  recordTokenUse(base, token.tokenId);
  // The call's trace and usage are written once the response is on its way. A serverless platform
  // may freeze the function after the response, and `next start` exits on SIGTERM once the after()
  // tasks of the requests in flight end, so then the request is kept (after()) until they are
  // written; otherwise a long-running server writes them in the background, as waiting would hold
  // every request's context for as long as the writer lags behind the traffic.
  afterResponse(async () => {
    if (config().serverless || shuttingDown()) await pendingWritesSettled();
  });
  return {
    ...base,
    kv,
    // A verdict cached before tokens carried their creator has none: its calls go unattributed.
    actor: { kind: "token", tokenId: token.tokenId, tokenName: token.name, userId: token.createdBy ?? null },
    tenantId: token.tenantId,
    scopes: token.scopes,
    ...(token.profile && { profile: token.profile }),
    surface,
  };
}

export function withToken<P = Record<string, never>>(
  handler: (request: Request, context: TokenRequest<P>) => Promise<Response>,
  options: WithTokenOptions<P>,
) {
  const challenge = options.challenge ?? defaultChallenge;
  const tokenFrom = options.tokenFrom ?? bearerToken;

  const run = async (
    request: Request,
    route: { params: Promise<P> },
    scope: RequestScope,
  ): Promise<Response> => {
    const started = performance.now();
    const base = await platform();
    const params = await route.params;
    const raw = tokenFrom(request, params);
    const ahead = options.readAhead && raw ? cacheReadAhead(request, raw) : undefined;

    const auth = await authenticate(base, request, raw, ahead, challenge);
    if (auth instanceof Response) return auth;
    const { token } = auth;
    const refusedAudience = foreignAudience(token, options.resource?.(request), challenge);
    if (refusedAudience) return refusedAudience;
    const limitHeaders = await rateLimit(base, auth);
    if (limitHeaders instanceof Response) return limitHeaders;
    const refusedScope = missingScope(token, options.scope, limitHeaders, challenge);
    if (refusedScope) return refusedScope;
    scope.tenantId = token.tenantId;
    const kv = ahead ? ahead.kv(base.kv, auth.alongside) : base.kv;
    const ctx = authorizedContext(base, token, kv, options.surface ?? "rest");

    const authorized = performance.now();
    const response = await handler(request, {
      ctx,
      token,
      requestId: scope.requestId,
      params,
      body: ahead?.body(),
    });
    ahead?.remember();
    for (const [name, value] of Object.entries(limitHeaders)) response.headers.set(name, value);
    response.headers.set("server-timing", serverTiming(started, authorized, performance.now()));
    return response;
  };

  return async (request: Request, route: { params: Promise<P> }): Promise<Response> => {
    const started = performance.now();
    const scope: RequestScope = { requestId: randomUUID() };
    const response = await inRequestScope(scope, async () => {
      try {
        return await run(request, route, scope);
      } catch (error) {
        return toErrorResponse(error, scope.requestId);
      }
    });
    response.headers.set("x-request-id", scope.requestId);
    if (shuttingDown()) response.headers.set("connection", "close");
    observeRequest(
      {
        route: options.route,
        method: request.method,
        status: response.status,
        durationMs: performance.now() - started,
      },
      scope,
    );
    return response;
  };
}
