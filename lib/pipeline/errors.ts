/** Errors a verb may throw; transports map `code` to a status (see lib/http/errors or the route wrapper). */
export type ServiceErrorCode =
  | "invalid_input"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "payload_too_large"
  | "rate_limited"
  | "budget_exhausted"
  | "all_providers_failed"
  | "no_provider_configured";

export class ServiceError extends Error {
  constructor(
    readonly code: ServiceErrorCode,
    message: string,
    readonly details?: unknown,
    /** With `rate_limited`: when trying again may succeed, in seconds (HTTP's Retry-After). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = "ServiceError";
  }
}
