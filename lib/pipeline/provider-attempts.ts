/**
 * What happens around each provider attempt of a tenant's tool call, apart from the call itself:
 * the circuit breaker (refuse, then learn from the outcome), the key's rate limit (skip a paused key, pace a
 * key limited per second, pause a key the provider says is used up), the budget admission (reserve),
 * metrics, marking a refused tenant key invalid, and the caller's live progress.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { priceOf, requestCostMicros } from "@/lib/engine/shared/price";
import type {
  Admission,
  AdmitHook,
  AttemptReport,
  FailureReason,
  ProviderFailure,
  ProviderRegistration,
  ProviderSpan,
  ResolvedProvider,
  SpanOutcome,
} from "@/lib/engine/shared/types";
import { log } from "@/lib/observability/logger";
import { metrics } from "@/lib/observability/metrics";
import type { AdmissionRequest, AdmissionResult } from "@/lib/pipeline/capabilities";
import { drawsOnOperator, refusalReason } from "./budgets/operator-quota";
import type { ExhaustedBudget } from "./capabilities";
import type { TenantContext } from "./context";
import { breakerKey, verdictOf } from "./health/circuit-breaker";
import { markKeyInvalid } from "./keys/mark-key-invalid";
import { operatorKey } from "./providers/operator-providers";
import { claimSendSlot, PACE_MAX_WAIT_MS } from "./rate-limit/pacing";
import {
  type KeyState,
  keyId,
  pauseKey,
  pauseSecondsAfter429,
  readKeyStates,
  rememberRate,
} from "./rate-limit/provider-pause";

/** One provider's attempt as the caller watches it live (the span the trace will store), or a cache hit. */
export type ProviderProgress = Omit<ProviderSpan, "outcome"> & { outcome: SpanOutcome };
export type OnProgress = (event: ProviderProgress) => void;

export interface AttemptLedger {
  admit: AdmitHook;
  exhausted: ExhaustedBudget[];
  /**
   * Whether admission could not reach the database: it failed, or an admission has waited longer than the
   * database ever takes to answer one. A call where nothing succeeded then fails as the database's fault,
   * not its providers'.
   */
  databaseAway(): boolean;
  /**
   * Ends the call's accounting, once: attempts that ran are settled (or refunded when the provider does
   * not bill their failure), attempts admitted but never run are refunded, and so is any admission that
   * completes afterwards. Resolves with the micro-dollars kept per provider, one entry per kept attempt in
   * admission order (a call may ask a provider more than once: web_search's `queries`).
   */
  close(): Promise<Map<string, number[]>>;
}

/** Failures a provider does not bill for: the charge is refunded. Anything else (timeouts included) is kept. */
const NOT_BILLED: ReadonlySet<string> = new Set<FailureReason>([
  "bad_key",
  "rate_limited",
  "network_error",
  "blocked",
  "not_configured",
]);

/** Whether a provider bills an attempt that failed for `reason` (an attempt that answered is billed). */
export const isBilledFailure = (reason: string): boolean => !NOT_BILLED.has(reason);

/**
 * Keys limited to at most this many calls a second are paced (pacing.ts); above it a gateway's calls rarely
 * reach the limit, and a 429 pauses the key as for any provider.
 */
const PACED_UP_TO_PER_SECOND = 20;
/**
 * An answer whose headers say a window is used up pauses the key only when that window is longer than a
 * second: a per-second window is pacing's business, and its reset is the next slot anyway.
 */
const PAUSE_FROM_HEADERS_MIN_SECONDS = 2;

interface Reservation {
  id: string;
  providerId: string;
  costMicros: number;
  /** Set when the attempt reported back, i.e. the provider was actually called; with its cost when priced by use. */
  outcome?: { failure?: ProviderFailure; costMicros?: number };
  /** Gives back the breaker's half-open probe slot when the attempt never reports. */
  giveBackProbe(): void;
}

const skipped = (provider: string, kind: string, outcome: ProviderSpan["outcome"]): ProviderSpan => ({
  provider,
  kind,
  start_offset_ms: 0,
  duration_ms: 0,
  outcome,
});

interface LedgerCall {
  traceId: string;
  kind: string;
  entries: readonly ResolvedProvider<ProviderRegistration>[];
  onProgress?: OnProgress;
}

/** One call's accounting, shared by its attempts' admissions and its closing. */
interface Ledger {
  ctx: TenantContext;
  call: LedgerCall;
  admissions: AdmissionBatch;
  /** In admission order. */
  reservations: Reservation[];
  /** Admissions asked so far, per provider. */
  attempts: Map<string, number>;
  exhausted: ExhaustedBudget[];
  /** The call's keys' pauses and learned per-second limits, by key id: one KV round trip, read at once. */
  keyStates: Promise<Map<string, KeyState>>;
  /** Pauses and limits being written: the closing waits for them, so the caller's next call sees them. */
  keyWrites: Promise<void>[];
  /** Set once the call is accounted for: a later admission is refunded at once. */
  closing?: Promise<Map<string, number[]>>;
}

export function attemptLedger(ctx: TenantContext, call: LedgerCall): AttemptLedger {
  const ledger: Ledger = {
    ctx,
    call,
    admissions: new AdmissionBatch(ctx),
    reservations: [],
    attempts: new Map(),
    exhausted: [],
    keyStates: readKeyStates(ctx.kv, [...new Set(call.entries.map((e) => keyId(e.provider.id, e.apiKey)))]),
    keyWrites: [],
  };
  return {
    admit: (providerId, reserveMicros) => admitAttempt(ledger, providerId, reserveMicros),
    exhausted: ledger.exhausted,
    databaseAway: () => ledger.admissions.databaseAway(),
    close: () => {
      ledger.closing ??= closeLedger(ledger);
      return ledger.closing;
    },
  };
}

/**
 * An admission is one short transaction: unanswered this long, the database is not serving (hung, or locked
 * up), rather than a caller's short deadline or cancellation having come first.
 */
const ADMISSION_AWAY_MS = 500;

/** What a provider's failure says when admission could not reach the database. */
const ADMISSION_UNAVAILABLE = "the database that keeps budgets did not answer";

/** A fan-out asks for all its providers in the same tick: they are admitted together (admitAll). */
class AdmissionBatch {
  private pending: Array<{ request: AdmissionRequest; done: (result: Promise<AdmissionResult>) => void }> =
    [];
  /** When each batch sent to the database and not answered yet was sent. */
  private readonly unansweredSince = new Set<{ at: number }>();
  private failed = false;

  constructor(private readonly ctx: TenantContext) {}

  databaseAway(): boolean {
    const now = Date.now();
    return this.failed || [...this.unansweredSince].some(({ at }) => now - at >= ADMISSION_AWAY_MS);
  }

  admit(request: AdmissionRequest): Promise<AdmissionResult> {
    return new Promise<AdmissionResult>((resolve) => {
      if (this.pending.length === 0) setImmediate(this.admitPending);
      this.pending.push({ request, done: resolve });
    });
  }

  private readonly admitPending = (): void => {
    const current = this.pending;
    this.pending = [];
    const results = this.ctx.admissions
      .admitAll(
        this.ctx,
        current.map((entry) => entry.request),
      )
      .catch((error: unknown) => {
        // The driver's error quotes the statement and its parameters: the log gets it, the caller a
        // message that names the dependency and nothing of it.
        this.failed = true;
        log().error({ err: error, tenant_id: this.ctx.tenantId }, "admission failed");
        throw new Error(ADMISSION_UNAVAILABLE);
      });
    const sent = { at: Date.now() };
    this.unansweredSince.add(sent);
    const answered = () => this.unansweredSince.delete(sent);
    results.then(answered, answered);
    for (const [i, entry] of current.entries()) entry.done(results.then((all) => all[i] as AdmissionResult));
  };
}

/**
 * Admits one provider's attempt: refused while its breaker is open or its budgets are spent, refunded at
 * once when the call was accounted for while the admission waited, else reserved until the call closes.
 */
async function admitAttempt(ledger: Ledger, providerId: string, reserveMicros?: number): Promise<Admission> {
  const { ctx, call } = ledger;
  // Counted before any wait, so attempts admitted together still differ: the provider's first attempt keeps
  // the key it always had, a later one of the same call (web_search's `queries`) gets its own.
  const attempt = (ledger.attempts.get(providerId) ?? 0) + 1;
  ledger.attempts.set(providerId, attempt);
  const idempotencyKey = `${call.traceId}:${providerId}${attempt > 1 ? `:${attempt}` : ""}`;
  const entry = call.entries.find((e) => e.provider.id === providerId);
  const breaker = breakerKey(providerId, entry?.apiKey);
  if (!ctx.breakers.allow(breaker, ctx.tenantId)) {
    reportProgress(call, skipped(providerId, call.kind, "skipped_breaker"));
    return { ok: false, reason: "breaker_open" };
  }
  // An attempt that will not run says nothing about health: a half-open probe slot it held is free again.
  const giveBackProbe = () => ctx.breakers.record(breaker, ctx.tenantId, "neutral");
  const key = keyId(providerId, entry?.apiKey);
  const state = (await ledger.keyStates).get(key) ?? {};
  if (state.pausedUntil !== undefined && state.pausedUntil > Date.now()) {
    giveBackProbe();
    const until = new Date(state.pausedUntil).toISOString();
    return skipRateLimited(call, providerId, `the key is paused until ${until} (the provider's rate limit)`);
  }
  const costMicros = reserveMicros ?? (entry ? requestCostMicros(priceOf(entry)) : 0);
  const admission = await ledger.admissions
    .admit({
      provider: providerId,
      costMicros,
      idempotencyKey,
      drawsOnOperator: drawsOnOperator(entry, ctx.env),
    })
    .catch((error: unknown) => {
      giveBackProbe();
      throw error;
    });
  if (!admission.ok) {
    giveBackProbe();
    ledger.exhausted.push(...admission.exhausted);
    metrics().budgetRejections.inc({ provider: providerId });
    reportProgress(call, skipped(providerId, call.kind, "skipped_budget"));
    return { ok: false, reason: refusalReason(admission.exhausted) };
  }
  if (ledger.closing) {
    // The call gave up waiting for this admission and has been accounted for: refund it.
    giveBackProbe();
    await ctx.admissions.close(ctx, { kept: [], refunded: [admission.reservationId] });
    return { ok: false, reason: "budget_exhausted" };
  }
  const reservation: Reservation = { id: admission.reservationId, providerId, costMicros, giveBackProbe };
  ledger.reservations.push(reservation);
  // Paced after admission, so the call goes out right after its wait; a skip leaves the reservation
  // without an outcome, refunded when the call closes.
  const perSecond = state.perSecond ?? entry?.provider.requestsPerSecond;
  if (perSecond !== undefined && perSecond <= PACED_UP_TO_PER_SECOND) {
    const wait = await claimSendSlot(ctx.kv, key, perSecond, Date.now());
    if (wait === null) {
      return skipRateLimited(
        call,
        providerId,
        `no send slot within ${PACE_MAX_WAIT_MS} ms under its limit of ${perSecond} a second`,
      );
    }
    if (wait > 0) await sleep(wait);
  }
  return {
    ok: true,
    settled: (attempt) =>
      settleAttempt(ledger, { providerId, entry, breaker, reservation, key, state }, attempt),
  };
}

/** An attempt skipped for its key's rate limit: nothing is sent, and the span says why. */
function skipRateLimited(call: LedgerCall, providerId: string, detail: string): Admission {
  reportProgress(call, skipped(providerId, call.kind, "skipped_rate_limit"));
  return { ok: false, reason: "rate_limited", detail };
}

/**
 * What an attempt says about its key's rate limit, written for every instance: a 429 pauses the key (for
 * its Retry-After, else its reset header, else a default), an answer whose headers say a window longer than
 * a second is used up pauses it until that window resets, and a per-second limit the headers name is kept
 * for pacing when it is new.
 */
function noteRateLimit(ledger: Ledger, key: string, known: KeyState, attempt: AttemptReport): void {
  const { kv } = ledger.ctx;
  const hint = attempt.rateLimit;
  const pause =
    attempt.failure?.reason === "rate_limited"
      ? pauseSecondsAfter429(attempt.failure.retryAfter)
      : hint?.retryAfter !== undefined && hint.retryAfter >= PAUSE_FROM_HEADERS_MIN_SECONDS
        ? hint.retryAfter
        : undefined;
  if (pause !== undefined) ledger.keyWrites.push(pauseKey(kv, key, pause, Date.now()));
  if (hint?.perSecond !== undefined && hint.perSecond !== known.perSecond) {
    ledger.keyWrites.push(rememberRate(kv, key, hint.perSecond));
  }
}

/**
 * An admitted attempt reported back: its outcome is noted for the closing, the breaker learns from it, and
 * a tenant's own key the provider refused is marked invalid.
 */
function settleAttempt(
  ledger: Ledger,
  admitted: {
    providerId: string;
    entry: ResolvedProvider<ProviderRegistration> | undefined;
    breaker: string;
    reservation: Reservation;
    /** The key's id and what was known of its rate limit when it was admitted. */
    key: string;
    state: KeyState;
  },
  attempt: AttemptReport,
): void {
  const { ctx, call } = ledger;
  const { providerId, entry, breaker, reservation } = admitted;
  const { span, failure, costMicros } = attempt;
  reservation.outcome = { failure, costMicros };
  ctx.breakers.record(breaker, ctx.tenantId, verdictOf(attempt));
  noteRateLimit(ledger, admitted.key, admitted.state, attempt);
  metrics().providerCallSeconds.observe({ provider: providerId, kind: call.kind }, span.duration_ms / 1000);
  reportProgress(call, span);
  const ownKey = entry?.apiKey && entry.apiKey !== operatorKey(entry.provider.keyEnv, ctx.env);
  if (failure?.reason === "bad_key" && ownKey) {
    // Kept with the request's pending work: a serverless function is not frozen before the write lands.
    ctx.pending.track(
      markKeyInvalid({ ctx, input: { provider: providerId } }).catch((error: unknown) =>
        log().warn(error, "marking a refused key invalid failed"),
      ),
    );
  }
}

/** Counts the attempt and tells the caller's live progress, whose failure is only logged. */
function reportProgress(call: LedgerCall, span: ProviderProgress): void {
  metrics().providerCalls.inc({ provider: span.provider, kind: call.kind, outcome: span.outcome });
  try {
    call.onProgress?.(span);
  } catch (error) {
    log().warn(error, "progress listener failed");
  }
}

/** Settles or refunds every reservation; resolves with the micro-dollars kept per provider, per attempt. */
async function closeLedger(ledger: Ledger): Promise<Map<string, number[]>> {
  // A pause written before the answer: the caller's next call, on any instance, skips the key.
  await Promise.all(ledger.keyWrites);
  const { charged, kept, refunded, trimmed } = sortReservations(ledger.reservations);
  const closed = ledger.ctx.admissions
    .close(ledger.ctx, { kept, refunded, trimmed })
    .catch((error: unknown) => log().error(error, "closing reservations failed; the sweep will refund them"));
  // A refund frees budget the caller's next call may need (a retry after a refused key), so the call
  // answers once it is made. Settling kept charges changes no remaining budget (they were reserved at
  // admission), so that runs off the response path: readers of usage wait for it (UsageSink.track),
  // and the sweep refunds whatever a failure here leaves reserved.
  if (refunded.length > 0) await closed;
  else ledger.ctx.pending.track(closed);
  return charged;
}

/**
 * The reservations to keep (the attempt ran and the provider bills it) and to refund, with the charge kept
 * per provider; a kept attempt priced by use that cost less than its reservation is trimmed to its cost. An
 * attempt admitted but never run also gives its breaker probe slot back here.
 */
function sortReservations(reservations: readonly Reservation[]): {
  charged: Map<string, number[]>;
  kept: string[];
  refunded: string[];
  trimmed: Array<{ id: string; costMicros: number }>;
} {
  const charged = new Map<string, number[]>();
  const kept: string[] = [];
  const refunded: string[] = [];
  const trimmed: Array<{ id: string; costMicros: number }> = [];
  for (const reservation of reservations) {
    const failure = reservation.outcome?.failure;
    // Admitted but never run: the call gave up on the admission at its deadline.
    if (!reservation.outcome) reservation.giveBackProbe();
    if (!reservation.outcome || (failure && NOT_BILLED.has(failure.reason))) refunded.push(reservation.id);
    else {
      const used = reservation.outcome.costMicros;
      const cost = used === undefined ? reservation.costMicros : Math.min(used, reservation.costMicros);
      if (cost < reservation.costMicros) trimmed.push({ id: reservation.id, costMicros: cost });
      charged.set(reservation.providerId, [...(charged.get(reservation.providerId) ?? []), cost]);
      kept.push(reservation.id);
    }
  }
  return { charged, kept, refunded, trimmed };
}
