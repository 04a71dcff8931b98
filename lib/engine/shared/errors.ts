import type { FailureReason } from "./types";

/** Thrown by adapters (and the provider HTTP client) so the engine can report a distinct reason. */
export class ProviderError extends Error {
  constructor(
    readonly reason: FailureReason,
    message: string,
    readonly status?: number,
    /** Seconds from a Retry-After header. */
    readonly retryAfter?: number,
  ) {
    super(message);
    this.name = "ProviderError";
  }
}
