import { isDatabaseUnavailable } from "@/lib/db/unavailable";
import { KvUnavailableError } from "@/lib/kv/commands";
import { log } from "@/lib/observability/logger";

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
  | "no_provider_configured"
  /** A dependency of the service itself (the database, the KV store) cannot serve: 503 with Retry-After. */
  | "unavailable";

export class ServiceError extends Error {
  constructor(
    readonly code: ServiceErrorCode,
    message: string,
    readonly details?: unknown,
    /** With `rate_limited` and `unavailable`: when trying again may succeed, in seconds (HTTP's Retry-After). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = "ServiceError";
  }
}

export type Dependency = "database" | "kv";

/** When a caller may try again after a dependency failed: about the time a reconnect takes. */
const UNAVAILABLE_RETRY_SECONDS = 5;

const UNAVAILABLE_MESSAGE: Readonly<Record<Dependency, string>> = {
  database: "the database does not answer; nothing was charged, try again shortly",
  kv: "the KV store does not answer; nothing was charged, try again shortly",
};

/** A call refused because `dependency` cannot serve. Names the dependency and nothing of its error. */
export function unavailableError(dependency: Dependency): ServiceError {
  return new ServiceError(
    "unavailable",
    UNAVAILABLE_MESSAGE[dependency],
    { dependency },
    UNAVAILABLE_RETRY_SECONDS,
  );
}

/** The dependency whose failure `error` is, if it is one (the KV store away, the database unreachable). */
function failedDependency(error: unknown): Dependency | undefined {
  if (error instanceof KvUnavailableError) return "kv";
  if (isDatabaseUnavailable(error)) return "database";
  return undefined;
}

/**
 * An error as a transport answers it: a dependency's failure becomes `unavailable` (the driver's own error,
 * which may quote a statement or an address, goes to the log with `logFields`); anything else is unchanged.
 */
export function asServiceError(error: unknown, logFields: Record<string, unknown>): unknown {
  const dependency = failedDependency(error);
  if (dependency === undefined) return error;
  log().warn({ err: error, dependency, ...logFields }, "a dependency did not answer");
  return unavailableError(dependency);
}
