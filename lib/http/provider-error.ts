import type { RateLimitHint } from "./rate-limit-headers";

/**
 * How a provider call failed, shared by the HTTP clients (which raise it) and the engine (adapters throw
 * it, spans and traces report its reason).
 */

/** Why a provider produced nothing. Distinct reasons so traces and callers can tell faults apart. */
export type FailureReason =
  | "timeout"
  | "http_error"
  | "bad_key"
  | "rate_limited"
  | "invalid_response"
  | "too_large"
  | "blocked"
  | "network_error"
  | "not_configured"
  | "budget_exhausted"
  /** The operator's quota on calls with its keys is used up for this workspace. */
  | "operator_quota_exhausted"
  | "breaker_open";

/** Thrown by adapters (and the provider HTTP client) so the engine can report a distinct reason. */
export class ProviderError extends Error {
  constructor(
    readonly reason: FailureReason,
    message: string,
    readonly status?: number,
    /** Seconds from a Retry-After header. */
    readonly retryAfter?: number,
    /** What the error response's rate-limit headers said about the key (lib/http/rate-limit-headers.ts). */
    readonly rateLimit?: RateLimitHint,
  ) {
    super(message);
    this.name = "ProviderError";
  }
}
