/**
 * Transport: the one mapping from service errors to HTTP. Body `{error: {code, message, details?}}`.
 */
import { ZodError } from "zod";
import { log } from "@/lib/observability/logger";
import { ServiceError, type ServiceErrorCode } from "@/lib/services/errors";

const STATUS: Readonly<Record<ServiceErrorCode, number>> = {
  invalid_input: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  rate_limited: 429,
  budget_exhausted: 402,
  all_providers_failed: 502,
  no_provider_configured: 503,
};

export function errorResponse(
  code: ServiceErrorCode,
  message: string,
  details?: unknown,
  headers?: HeadersInit,
): Response {
  const body = { error: { code, message, ...(details === undefined ? {} : { details }) } };
  return Response.json(body, { status: STATUS[code], headers });
}

/** Maps anything a handler throws; unexpected errors become a 500 without internals. */
export function toErrorResponse(error: unknown, requestId: string): Response {
  if (error instanceof ServiceError) return errorResponse(error.code, error.message, error.details);
  if (error instanceof ZodError) {
    const details = error.issues.map((issue) => ({ path: issue.path.join("."), message: issue.message }));
    return errorResponse("invalid_input", "invalid input", details);
  }
  log().error({ err: error, request_id: requestId }, "request failed");
  return Response.json(
    { error: { code: "internal", message: `internal error (request ${requestId})` } },
    { status: 500 },
  );
}
