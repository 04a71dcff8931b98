/**
 * Transport: the one mapping from service errors to HTTP. Body `{error: {code, message, details?}}`.
 */
import { ZodError } from "zod";
import { log } from "@/lib/observability/logger";
import { asServiceError, ServiceError, type ServiceErrorCode } from "@/lib/pipeline/errors";
import { invalidInputError } from "@/lib/pipeline/input-issues";

/** A verb's codes, and the one only HTTP has: a method the route does not serve. */
export type ApiErrorCode = ServiceErrorCode | "method_not_allowed";

const STATUS: Readonly<Record<ApiErrorCode, number>> = {
  invalid_input: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  rate_limited: 429,
  budget_exhausted: 402,
  all_providers_failed: 502,
  no_provider_configured: 503,
  unavailable: 503,
};

export function errorResponse(
  code: ApiErrorCode,
  message: string,
  details?: unknown,
  headers?: HeadersInit,
): Response {
  const body = { error: { code, message, ...(details === undefined ? {} : { details }) } };
  return Response.json(body, { status: STATUS[code], headers });
}

/** Maps anything a handler throws; unexpected errors become a 500 without internals. */
export function toErrorResponse(error: unknown, requestId: string): Response {
  // The engine's own schema checks throw zod's error (a verb's parseInput has already converted it).
  const known =
    error instanceof ZodError
      ? invalidInputError(error.issues)
      : asServiceError(error, { request_id: requestId });
  if (known instanceof ServiceError) {
    const retry = known.retryAfterSeconds;
    return errorResponse(
      known.code,
      known.message,
      known.details,
      retry ? { "retry-after": String(retry) } : {},
    );
  }
  log().error({ err: error, request_id: requestId }, "request failed");
  return Response.json(
    { error: { code: "internal", message: `internal error (request ${requestId})` } },
    { status: 500 },
  );
}
