/**
 * What happens around each provider attempt of a tenant's tool call, apart from the call itself:
 * the circuit breaker (refuse, then learn from the outcome), the budget admission (reserve), metrics,
 * marking a refused tenant key invalid, and the caller's live progress.
 */
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
import { usdToMicros } from "./budgets/units";
import type { ExhaustedBudget } from "./capabilities";
import type { TenantContext } from "./context";
import { breakerKey, verdictOf } from "./health/circuit-breaker";
import { markKeyInvalid } from "./keys/mark-key-invalid";
import { operatorKey } from "./providers/operator-providers";

/** One provider's attempt as the caller watches it live (the span the trace will store), or a cache hit. */
export type ProviderProgress = Omit<ProviderSpan, "outcome"> & { outcome: SpanOutcome };
export type OnProgress = (event: ProviderProgress) => void;

export interface AttemptLedger {
  admit: AdmitHook;
  exhausted: ExhaustedBudget[];
  /**
   * Ends the call's accounting, once: attempts that ran are settled (or refunded when the provider does
   * not bill their failure), attempts admitted but never run are refunded, and so is any admission that
   * completes afterwards. Resolves with the micro-dollars kept per provider.
   */
  close(): Promise<Map<string, number>>;
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

interface Reservation {
  id: string;
  costMicros: number;
  /** Set when the attempt reported back, i.e. the provider was actually called. */
  outcome?: { failure?: ProviderFailure };
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
  reservations: Map<string, Reservation>;
  exhausted: ExhaustedBudget[];
  /** Set once the call is accounted for: a later admission is refunded at once. */
  closing?: Promise<Map<string, number>>;
}

export function attemptLedger(ctx: TenantContext, call: LedgerCall): AttemptLedger {
  const ledger: Ledger = {
    ctx,
    call,
    admissions: new AdmissionBatch(ctx),
    reservations: new Map(),
    exhausted: [],
  };
  return {
    admit: (providerId) => admitAttempt(ledger, providerId),
    exhausted: ledger.exhausted,
    close: () => {
      ledger.closing ??= closeLedger(ledger);
      return ledger.closing;
    },
  };
}

/** What a provider's failure says when admission could not reach the database. */
const ADMISSION_UNAVAILABLE = "the database that keeps budgets did not answer";

/** A fan-out asks for all its providers in the same tick: they are admitted together (admitAll). */
class AdmissionBatch {
  private pending: Array<{ request: AdmissionRequest; done: (result: Promise<AdmissionResult>) => void }> =
    [];

  constructor(private readonly ctx: TenantContext) {}

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
        log().error({ err: error, tenant_id: this.ctx.tenantId }, "admission failed");
        throw new Error(ADMISSION_UNAVAILABLE);
      });
    for (const [i, entry] of current.entries()) entry.done(results.then((all) => all[i] as AdmissionResult));
  };
}

/**
 * Admits one provider's attempt: refused while its breaker is open or its budgets are spent, refunded at
 * once when the call was accounted for while the admission waited, else reserved until the call closes.
 */
async function admitAttempt(ledger: Ledger, providerId: string): Promise<Admission> {
  const { ctx, call } = ledger;
  const entry = call.entries.find((e) => e.provider.id === providerId);
  const breaker = breakerKey(providerId, entry?.apiKey);
  if (!ctx.breakers.allow(breaker, ctx.tenantId)) {
    reportProgress(call, skipped(providerId, call.kind, "skipped_breaker"));
    return { ok: false, reason: "breaker_open" };
  }
  // An attempt that will not run says nothing about health: a half-open probe slot it held is free again.
  const giveBackProbe = () => ctx.breakers.record(breaker, ctx.tenantId, "neutral");
  const costMicros = usdToMicros(entry?.provider.costPerRequestUsd ?? 0);
  const admission = await ledger.admissions
    .admit({
      provider: providerId,
      costMicros,
      idempotencyKey: `${call.traceId}:${providerId}`,
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
  const reservation: Reservation = { id: admission.reservationId, costMicros, giveBackProbe };
  ledger.reservations.set(providerId, reservation);
  return {
    ok: true,
    settled: (attempt) => settleAttempt(ledger, { providerId, entry, breaker, reservation }, attempt),
  };
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
  },
  attempt: AttemptReport,
): void {
  const { ctx, call } = ledger;
  const { providerId, entry, breaker, reservation } = admitted;
  const { span, failure } = attempt;
  reservation.outcome = { failure };
  ctx.breakers.record(breaker, ctx.tenantId, verdictOf(attempt));
  metrics().providerCallSeconds.observe({ provider: providerId, kind: call.kind }, span.duration_ms / 1000);
  reportProgress(call, span);
  const ownKey = entry?.apiKey && entry.apiKey !== operatorKey(entry.provider.keyEnv, ctx.env);
  if (failure?.reason === "bad_key" && ownKey) {
    markKeyInvalid({ ctx, input: { provider: providerId } }).catch((error: unknown) =>
      log().warn(error, "marking a refused key invalid failed"),
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

/** Settles or refunds every reservation; resolves with the micro-dollars kept per provider. */
async function closeLedger(ledger: Ledger): Promise<Map<string, number>> {
  const { charged, kept, refunded } = sortReservations(ledger.reservations);
  const closed = ledger.ctx.admissions
    .close(ledger.ctx, { kept, refunded })
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
 * per provider. An attempt admitted but never run also gives its breaker probe slot back here.
 */
function sortReservations(reservations: Map<string, Reservation>): {
  charged: Map<string, number>;
  kept: string[];
  refunded: string[];
} {
  const charged = new Map<string, number>();
  const kept: string[] = [];
  const refunded: string[] = [];
  for (const [providerId, reservation] of reservations) {
    const failure = reservation.outcome?.failure;
    // Admitted but never run: the call gave up on the admission at its deadline.
    if (!reservation.outcome) reservation.giveBackProbe();
    if (!reservation.outcome || (failure && NOT_BILLED.has(failure.reason))) refunded.push(reservation.id);
    else {
      charged.set(providerId, reservation.costMicros);
      kept.push(reservation.id);
    }
  }
  return { charged, kept, refunded };
}
