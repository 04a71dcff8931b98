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
  /** The key's plan, credit or payment limit is used up (402, Tavily 432/433, …): the key waits for its reset. */
  | "quota_exhausted"
  /** The provider refused our request as malformed (400, 422): a defect of the adapter, never the provider's. */
  | "invalid_request"
  /** Fetch: the target site refused the provider (401, 403, 451 from the page). */
  | "blocked_target"
  | "invalid_response"
  | "too_large"
  | "blocked"
  | "network_error"
  | "not_configured"
  | "budget_exhausted"
  /** The operator's quota on calls with its keys is used up for this workspace. */
  | "operator_quota_exhausted"
  | "breaker_open";

/**
 * What a provider's own material says an error answer means, where the status alone would mislead: a status
 * it uses for quota (Tavily's 432), or a code in the body that changes a status's meaning (Linkup's 403
 * `IP_NOT_WHITELISTED` is about the server's address, not the key). Rules are tried in order; the first whose
 * status matches (and whose `body` pattern matches the error body, when it has one) decides.
 */
export interface ErrorRule {
  status: number;
  body?: RegExp;
  reason: FailureReason;
  /** What the failure says, in a few words ("refused the call: the key's plan limit is used up"). */
  says: string;
}

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
