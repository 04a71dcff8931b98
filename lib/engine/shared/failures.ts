/**
 * Turns whatever a provider call threw into a reported failure. ProviderErrors keep their reason;
 * anything else is the adapter's or the transport's surprise: a network-level error code becomes
 * "network_error", everything else (TypeError, SyntaxError, …) "invalid_response", marked internal: adapters
 * validate what providers send (parseResponse throws a ProviderError), so such a throw is our own code's.
 * Messages are sanitised: the call's key and credential-like query parameters are redacted, control
 * characters removed, length capped; they go to traces and API responses.
 */
import type { RateLimitHint } from "@/lib/http/rate-limit-headers";
import { isTimeout } from "./abort";
import { ProviderError } from "./errors";
import type { FailureReason } from "./types";

const MAX_MESSAGE_CHARS = 300;
const CREDENTIAL_PARAM = /([?&](?:[\w-]*(?:key|token|secret|auth|sig)[\w-]*)=)[^&\s#"']+/gi;
const BEARER = /(bearer\s+)[\w.~+/-]+=*/gi;

export interface ClassifiedFailure {
  reason: FailureReason;
  message: string;
  status?: number;
  retryAfter?: number;
  /** What the error response's rate-limit headers said about the key. */
  rateLimit?: RateLimitHint;
  /** Our own code threw (an adapter's bug, a caller-supplied step failing): nothing the provider did. */
  internal?: true;
}

/**
 * `signal` is the call's own signal: once it has aborted, whatever the adapter threw is a timeout.
 * `cancelMessage` describes an abort that was not a deadline (the caller went away).
 */
export function classifyFailure(
  error: unknown,
  signal: AbortSignal,
  secrets: readonly string[],
  cancelMessage = "cancelled",
): ClassifiedFailure {
  if (signal.aborted) {
    const reason: unknown = signal.reason;
    return {
      reason: "timeout",
      message: isTimeout(reason) && reason instanceof Error ? reason.message : cancelMessage,
    };
  }
  if (error instanceof ProviderError) {
    const failure: ClassifiedFailure = {
      reason: error.reason,
      message: sanitizeMessage(error.message, secrets),
    };
    if (error.status !== undefined) failure.status = error.status;
    if (error.retryAfter !== undefined) failure.retryAfter = error.retryAfter;
    if (error.rateLimit !== undefined) failure.rateLimit = error.rateLimit;
    return failure;
  }
  const detail = error instanceof Error ? `${error.name}: ${error.message}` : "non-error value thrown";
  const message = sanitizeMessage(`unexpected adapter error (${detail})`, secrets);
  return hasErrorCode(error)
    ? { reason: "network_error", message }
    : { reason: "invalid_response", message, internal: true };
}

export function sanitizeMessage(message: string, secrets: readonly string[]): string {
  let text = message;
  for (const secret of secrets) {
    if (secret.length >= 4) text = text.split(secret).join("[redacted]");
  }
  text = text
    .replace(CREDENTIAL_PARAM, "$1[redacted]")
    .replace(BEARER, "$1[redacted]")
    .replace(/\p{Cc}+/gu, " ")
    .trim();
  return text.length > MAX_MESSAGE_CHARS ? `${text.slice(0, MAX_MESSAGE_CHARS - 1)}…` : text;
}

/** Node system errors (ECONNRESET, …) and undici errors (UND_ERR_*) carry a string code, maybe on a cause. */
function hasErrorCode(error: unknown, depth = 0): boolean {
  if (typeof error !== "object" || error === null || depth > 3) return false;
  if ("code" in error && typeof error.code === "string" && /^(E[A-Z]+|UND_ERR_\w+)$/.test(error.code))
    return true;
  return "cause" in error && hasErrorCode(error.cause, depth + 1);
}
