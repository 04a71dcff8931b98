/**
 * Transport: the one wrapper of the dashboard's session-authenticated routes (the playground's runs),
 * withToken's counterpart for a signed-in user. In order, one step each: refuse what another site's page
 * could send with the user's cookie (403: the Host and Origin guard of MCP's endpoint, so a rebound page
 * or a forged X-Forwarded-Host gets nowhere), require a session (401), hold the user to the workspace's
 * per-token rate limit (429 with Retry-After), then run the handler with the user's context on the route's
 * trace surface, and map whatever it throws to `{error: {code, message}}`.
 */
import { randomUUID } from "node:crypto";
import type { Session } from "next-auth";
import { errorResponse, toErrorResponse } from "@/lib/api/errors";
import { foreignRequestReason } from "@/lib/api/request-guard";
import { sessionContext } from "@/lib/auth/context";
import { currentSession } from "@/lib/auth/session";
import { config } from "@/lib/config";
import type { Surface } from "@/lib/pipeline/capabilities";
import type { TenantContext } from "@/lib/pipeline/context";
import { limitSignedInUser } from "@/lib/pipeline/rate-limit/limits";

export interface SessionRequest {
  /** The signed-in user's context, on the route's surface. */
  ctx: TenantContext;
  session: Session;
}

export interface WithSessionOptions {
  /** Recorded on the calls' traces. */
  surface: Surface;
}

/** A request another site's page could make is refused, 403, before anything else is looked at. */
function foreignRequest(request: Request): Response | undefined {
  const { auth, allowedHosts } = config();
  const reason = foreignRequestReason(request, { publicUrl: auth.url, allowedHosts });
  return reason === null ? undefined : errorResponse("forbidden", reason);
}

/**
 * The signed-in user's rate limit, the one a token of the workspace has (the user's calls spend
 * the same providers and budgets); 429 with Retry-After beyond it.
 */
async function rateLimit(ctx: TenantContext, session: Session): Promise<Response | undefined> {
  const limit = await limitSignedInUser(ctx, session.user.id);
  if (limit.ok) return undefined;
  return errorResponse(
    "rate_limited",
    `Rate limit of ${limit.limit} runs a minute reached; try again in ${limit.retryAfter} s.`,
    undefined,
    { "retry-after": String(limit.retryAfter) },
  );
}

export function withSession(
  handler: (request: Request, context: SessionRequest) => Promise<Response>,
  options: WithSessionOptions,
) {
  return async (request: Request): Promise<Response> => {
    try {
      const foreign = foreignRequest(request);
      if (foreign) return foreign;
      const session = await currentSession();
      if (!session) return errorResponse("unauthorized", "sign in to use the dashboard");
      const ctx = await sessionContext(session, options.surface);
      const limited = await rateLimit(ctx, session);
      if (limited) return limited;
      return await handler(request, { ctx, session });
    } catch (error) {
      return toErrorResponse(error, randomUUID());
    }
  };
}
