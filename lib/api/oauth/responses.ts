/**
 * What the OAuth endpoints answer: JSON never cached (RFC 6749 §5.1), errors as `{error,
 * error_description}` (§5.2) with the status each calls for, open to browser-based clients (cors.ts).
 */
import { randomUUID } from "node:crypto";
import { toErrorResponse } from "@/lib/api/errors";
import { ServiceError } from "@/lib/pipeline/errors";
import { OAuthError, type OAuthErrorCode } from "@/lib/services/oauth/oauth-error";
import { CORS_HEADERS, withCors } from "./cors";

export const NO_STORE = { "cache-control": "no-store", pragma: "no-cache" } as const;

const STATUS: Partial<Record<OAuthErrorCode, number>> = {
  invalid_client: 401,
  access_denied: 403,
  temporarily_unavailable: 429,
};

export function oauthJson(body: unknown, status = 200): Response {
  return Response.json(body, { status, headers: { ...NO_STORE, ...CORS_HEADERS } });
}

/** An OAuth error response; a request the body reader refused (too large, unreadable) is invalid. */
export function oauthFailure(error: unknown): Response {
  const refused =
    error instanceof ServiceError && (error.code === "invalid_input" || error.code === "payload_too_large")
      ? new OAuthError("invalid_request", error.message)
      : error;
  if (!(refused instanceof OAuthError)) {
    return withCors(toErrorResponse(refused, randomUUID()));
  }
  const response = oauthJson(
    { error: refused.code, error_description: refused.message },
    STATUS[refused.code] ?? 400,
  );
  if (refused.retryAfter !== undefined) response.headers.set("retry-after", String(refused.retryAfter));
  if (refused.code === "invalid_client") response.headers.set("www-authenticate", 'Basic realm="searchmux"');
  return response;
}
