/**
 * One provider attempt, whatever the tool: configuration check, admission, the adapter call under its
 * own timeout inside the overall deadline, and the outcome with its span. Never throws and never
 * outlives the deadline, even when the adapter ignores its signal.
 */
import type { RateLimitHint } from "@/lib/http/rate-limit-headers";
import { linkedAbort, raceAbort } from "./abort";
import { classifyFailure, sanitizeMessage } from "./failures";
import type {
  Admission,
  AdmitHook,
  AttemptReport,
  FailureReason,
  ProviderFailure,
  ProviderId,
  ProviderRegistration,
  ProviderSpan,
  ProviderSuccess,
  ResolvedProvider,
  TransportFacts,
} from "./types";

export interface IsolationContext<Kind extends string> {
  /** Span kind: "search", "answer", "papers", … */
  kind: Kind;
  /** The overall deadline, already linked to the caller's signal. */
  deadline: AbortSignal;
  admit?: AdmitHook;
  /** performance.now() when the tool call started; span offsets are relative to it. */
  origin: number;
}

/** How to run and judge one adapter call; the wrapper supplies the signal. */
export interface IsolatedCall<E extends ResolvedProvider<ProviderRegistration>, R extends TransportFacts> {
  entry: E;
  invoke(signal: AbortSignal): Promise<R>;
  /** Guards against adapters that resolve with something malformed. */
  isResponse(value: unknown): value is R;
  /** Usable items in a response; 0 makes the span "empty". */
  count(response: R): number;
  /**
   * A call priced by what it uses (a model's tokens): the most it can cost, reserved at admission, and what
   * an answer actually cost (at most that). Without it the provider's cost per request is charged.
   */
  pricing?: { reserveMicros: number; costMicros(response: R): number };
}

export type IsolatedOutcome<E, R, Kind extends string> =
  | { ok: true; entry: E; response: R; success: ProviderSuccess; span: ProviderSpan<Kind> }
  | { ok: false; entry: E; failure: ProviderFailure; span: ProviderSpan<Kind> };

interface FailureDetails {
  reason: FailureReason;
  message: string;
  status?: number;
  retryAfter?: number;
  rateLimit?: RateLimitHint;
  internal?: true;
}

/** An attempt's outcome, and what the admission hook is told beyond the span. */
interface Attempted<E, R, Kind extends string> {
  outcome: IsolatedOutcome<E, R, Kind>;
  providerFault: boolean;
  /** What the provider's rate-limit headers said, answer or error. */
  rateLimit?: RateLimitHint;
}

export async function callIsolated<
  E extends ResolvedProvider<ProviderRegistration>,
  R extends TransportFacts,
  Kind extends string,
>(call: IsolatedCall<E, R>, context: IsolationContext<Kind>): Promise<IsolatedOutcome<E, R, Kind>> {
  const { entry } = call;
  const { provider } = entry;
  const queued = performance.now();
  if (context.deadline.aborted) {
    return failed(entry, context, queued, { reason: "timeout", message: "not started before the deadline" });
  }
  if (!isConfigured(entry)) {
    return failed(entry, context, queued, {
      reason: "not_configured",
      message: `${provider.displayName} is not configured`,
    });
  }

  const admission = await admitAttempt(provider.id, context, call.pricing?.reserveMicros);
  if ("refusal" in admission) return refused(entry, context, queued, admission.refusal);
  const { outcome, providerFault, rateLimit } = await attempt(call, context);
  try {
    admission.settled?.({
      span: outcome.span,
      ...(!outcome.ok && { failure: outcome.failure, providerFault }),
      ...(rateLimit && { rateLimit }),
      ...(outcome.ok && call.pricing && { costMicros: call.pricing.costMicros(outcome.response) }),
    });
  } catch {
    // An observer's failure must not change the call's outcome.
  }
  return outcome;
}

async function attempt<
  E extends ResolvedProvider<ProviderRegistration>,
  R extends TransportFacts,
  Kind extends string,
>(call: IsolatedCall<E, R>, context: IsolationContext<Kind>): Promise<Attempted<E, R, Kind>> {
  const { entry } = call;
  const { provider } = entry;

  const started = performance.now();
  const timeoutMs = entry.timeoutMs ?? provider.defaultTimeoutMs;
  const abort = linkedAbort(
    [context.deadline],
    timeoutMs,
    `${provider.id}: no answer within ${timeoutMs} ms`,
  );
  const judged = (details: FailureDetails): Attempted<E, R, Kind> => ({
    outcome: failed<E, R, Kind>(entry, context, started, details),
    providerFault: isProviderFault(details, elapsed(started), timeoutMs),
    rateLimit: details.rateLimit,
  });
  try {
    // Wrapping in a promise turns a synchronous throw into a rejection.
    const work = new Promise<R>((resolve) => resolve(call.invoke(abort.signal)));
    const response = await raceAbort(work, abort.signal);
    if (!call.isResponse(response)) {
      return judged({
        reason: "invalid_response",
        message: "adapter returned a malformed response",
        internal: true,
      });
    }
    return {
      outcome: succeeded(entry, context, started, response, call.count(response)),
      providerFault: false,
      rateLimit: response.rateLimit,
    };
  } catch (error) {
    return judged(classifyFailure(error, abort.signal, secretsOf(entry), `${context.kind} cancelled`));
  } finally {
    abort.dispose();
  }
}

/** A provider that has not answered in this share of its own timeout is slow, whoever's deadline ended the wait. */
const FAIR_SHARE_OF_TIMEOUT = 0.5;

/**
 * AttemptReport.providerFault. A timeout counts only once the provider has had a fair share of its own
 * timeout: a caller's short `timeout_ms` or early cancellation ends the wait sooner and says nothing about
 * the provider, while the default deadline (10 s for search, under most providers' own 15 s) still lets a
 * hanging provider be recognised.
 */
function isProviderFault(details: FailureDetails, elapsedMs: number, timeoutMs: number): boolean {
  if (details.internal) return false;
  switch (details.reason) {
    case "timeout":
      return elapsedMs >= timeoutMs * FAIR_SHARE_OF_TIMEOUT;
    case "network_error":
    case "invalid_response":
      return true;
    case "http_error":
      return details.status === undefined || details.status >= 500;
    default:
      return false;
  }
}

type RefusalReason = Extract<Admission, { ok: false }>["reason"];

const REFUSAL_MESSAGE: Readonly<Record<RefusalReason, string>> = {
  budget_exhausted: "budget exhausted",
  operator_quota_exhausted: "operator quota exhausted",
  breaker_open: "circuit breaker open",
  rate_limited: "rate limited",
  quota_exhausted: "the key's quota is used up",
};

/** A refused attempt's span: skipped for the refusal's reason (nothing was sent). */
const SKIPPED: Readonly<Record<RefusalReason, ProviderSpan["outcome"]>> = {
  budget_exhausted: "skipped_budget",
  operator_quota_exhausted: "skipped_budget",
  breaker_open: "skipped_breaker",
  rate_limited: "skipped_rate_limit",
  quota_exhausted: "skipped_quota",
};

type Refusal = FailureDetails & { skipped?: ProviderSpan["outcome"] };
type AdmissionCheck = { refusal: Refusal } | { settled?: (report: AttemptReport) => void };

/** Admitted (with the hook's observer) or why not. A hook that fails or outlasts the deadline refuses. */
async function admitAttempt(
  providerId: ProviderId,
  context: IsolationContext<string>,
  reserveMicros: number | undefined,
): Promise<AdmissionCheck> {
  const { admit, deadline } = context;
  if (admit === undefined) return {};
  try {
    const admission = await raceAbort(
      new Promise<Admission>((resolve) => resolve(admit(providerId, reserveMicros, deadline))),
      deadline,
    );
    if (admission.ok) return { settled: admission.settled };
    const message = REFUSAL_MESSAGE[admission.reason];
    return {
      refusal: {
        reason: admission.reason,
        message: admission.detail ? `${message}: ${admission.detail}` : message,
        skipped: SKIPPED[admission.reason],
        ...(admission.retryAfter !== undefined && { retryAfter: admission.retryAfter }),
      },
    };
  } catch (error) {
    if (deadline.aborted)
      return { refusal: { reason: "timeout", message: "admission did not finish before the deadline" } };
    const detail = error instanceof Error ? error.message : "non-error value thrown";
    return {
      refusal: { reason: "network_error", message: sanitizeMessage(`admission check failed: ${detail}`, []) },
    };
  }
}

function isConfigured(entry: ResolvedProvider<ProviderRegistration>): boolean {
  const { provider } = entry;
  const needsKey =
    provider.configuredByWorkspace === true || (provider.keyEnv.length > 0 && provider.keyOptional !== true);
  return entry.baseUrl.trim() !== "" && (!needsKey || (entry.apiKey ?? "") !== "");
}

function secretsOf(entry: ResolvedProvider<ProviderRegistration>): string[] {
  return entry.apiKey === undefined ? [] : [entry.apiKey];
}

function succeeded<
  E extends ResolvedProvider<ProviderRegistration>,
  R extends TransportFacts,
  Kind extends string,
>(
  entry: E,
  context: IsolationContext<Kind>,
  started: number,
  response: R,
  count: number,
): IsolatedOutcome<E, R, Kind> {
  const duration = elapsed(started);
  const span: ProviderSpan<Kind> = {
    provider: entry.provider.id,
    kind: context.kind,
    start_offset_ms: Math.round(started - context.origin),
    duration_ms: duration,
    outcome: count === 0 ? "empty" : "ok",
  };
  if (response.httpStatus !== undefined) span.status = response.httpStatus;
  if (response.bytes !== undefined) span.bytes = response.bytes;
  return {
    ok: true,
    entry,
    response,
    success: { provider: entry.provider.id, duration_ms: duration, count },
    span,
  };
}

/** `duration` is fixed for attempts that never reached the provider (refused admission costs no time). */
function failed<E extends ResolvedProvider<ProviderRegistration>, R, Kind extends string>(
  entry: E,
  context: IsolationContext<Kind>,
  started: number,
  details: FailureDetails,
  duration: number = elapsed(started),
): IsolatedOutcome<E, R, Kind> {
  const failure: ProviderFailure = {
    provider: entry.provider.id,
    reason: details.reason,
    message: details.message,
    duration_ms: duration,
  };
  if (details.status !== undefined) failure.status = details.status;
  if (details.retryAfter !== undefined) failure.retryAfter = details.retryAfter;
  const span: ProviderSpan<Kind> = {
    provider: entry.provider.id,
    kind: context.kind,
    start_offset_ms: Math.round(started - context.origin),
    duration_ms: duration,
    outcome: spanOutcome(details.reason),
    error: details.message,
  };
  if (details.status !== undefined) span.status = details.status;
  return { ok: false, entry, failure, span };
}

/** An attempt the admission refused (or could not decide in time): it took no time and sent nothing. */
function refused<E extends ResolvedProvider<ProviderRegistration>, R, Kind extends string>(
  entry: E,
  context: IsolationContext<Kind>,
  started: number,
  { skipped, ...details }: Refusal,
): IsolatedOutcome<E, R, Kind> {
  const outcome = failed<E, R, Kind>(entry, context, started, details, 0);
  if (skipped) outcome.span.outcome = skipped;
  return outcome;
}

/** A failure's span outcome; an adapter may refuse for a budget of its own (a crawl's request budget). */
function spanOutcome(reason: FailureReason): ProviderSpan["outcome"] {
  if (reason === "timeout") return "timeout";
  if (reason === "budget_exhausted" || reason === "operator_quota_exhausted") return "skipped_budget";
  if (reason === "breaker_open") return "skipped_breaker";
  return "error";
}

function elapsed(since: number): number {
  return Math.round(performance.now() - since);
}
