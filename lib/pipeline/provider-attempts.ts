/**
 * What happens around each provider attempt of a tenant's tool call, apart from the call itself:
 * the circuit breaker (refuse, then learn from the outcome), the budget admission (reserve), metrics,
 * marking a refused tenant key invalid, and the caller's live progress.
 */
import type {
  AdmitHook,
  FailureReason,
  ProviderFailure,
  ProviderRegistration,
  ProviderSpan,
  ResolvedProvider,
} from "@/lib/engine/shared/types";
import { log } from "@/lib/observability/logger";
import { metrics } from "@/lib/observability/metrics";
import {
  type AdmissionRequest,
  type AdmissionResult,
  admitAll,
  closeReservations,
} from "./budgets/admission";
import type { ExhaustedBudget } from "./budgets/limits";
import { drawsOnOperator, refusalReason } from "./budgets/operator-quota";
import { usdToMicros } from "./budgets/units";
import type { TenantContext } from "./context";
import { breakerKey, verdictOf } from "./health/circuit-breaker";
import { markKeyInvalid } from "./keys/mark-key-invalid";
import { operatorKey } from "./providers/operator-providers";
import type { SpanOutcome } from "./traces/trace-sink";

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

export function attemptLedger(
  ctx: TenantContext,
  call: {
    traceId: string;
    kind: string;
    entries: readonly ResolvedProvider<ProviderRegistration>[];
    onProgress?: OnProgress;
  },
): AttemptLedger {
  const reservations = new Map<string, Reservation>();
  const exhausted: ExhaustedBudget[] = [];
  let closing: Promise<Map<string, number>> | undefined;
  const m = metrics();
  const report = (span: ProviderProgress) => {
    m.providerCalls.inc({ provider: span.provider, kind: call.kind, outcome: span.outcome });
    try {
      call.onProgress?.(span);
    } catch (error) {
      log().warn(error, "progress listener failed");
    }
  };

  // A fan-out asks for all its providers in the same tick: they are admitted together (admitAll).
  let batch: Array<{ request: AdmissionRequest; done: (result: Promise<AdmissionResult>) => void }> = [];
  const admitBatched = (request: AdmissionRequest) =>
    new Promise<AdmissionResult>((resolve) => {
      if (batch.length === 0) setImmediate(admitBatch);
      batch.push({ request, done: resolve });
    });
  function admitBatch() {
    const current = batch;
    batch = [];
    const results = admitAll(
      ctx,
      current.map((entry) => entry.request),
    );
    for (const [i, entry] of current.entries()) entry.done(results.then((all) => all[i] as AdmissionResult));
  }

  const admitHook: AdmitHook = async (providerId) => {
    const entry = call.entries.find((e) => e.provider.id === providerId);
    const breaker = breakerKey(providerId, entry?.apiKey);
    if (!ctx.breakers.allow(breaker, ctx.tenantId)) {
      report(skipped(providerId, call.kind, "skipped_breaker"));
      return { ok: false, reason: "breaker_open" };
    }
    // An attempt that will not run says nothing about health: a half-open probe slot it held is free again.
    const giveBackProbe = () => ctx.breakers.record(breaker, ctx.tenantId, "neutral");
    const costMicros = usdToMicros(entry?.provider.costPerRequestUsd ?? 0);
    const admission = await admitBatched({
      provider: providerId,
      costMicros,
      idempotencyKey: `${call.traceId}:${providerId}`,
      drawsOnOperator: drawsOnOperator(entry, ctx.env),
    }).catch((error: unknown) => {
      giveBackProbe();
      throw error;
    });
    if (!admission.ok) {
      giveBackProbe();
      exhausted.push(...admission.exhausted);
      m.budgetRejections.inc({ provider: providerId });
      report(skipped(providerId, call.kind, "skipped_budget"));
      return { ok: false, reason: refusalReason(admission.exhausted) };
    }
    if (closing) {
      // The call gave up waiting for this admission and has been accounted for: refund it.
      giveBackProbe();
      await closeReservations(ctx, { kept: [], refunded: [admission.reservationId] });
      return { ok: false, reason: "budget_exhausted" };
    }
    const reservation: Reservation = { id: admission.reservationId, costMicros, giveBackProbe };
    reservations.set(providerId, reservation);
    return {
      ok: true,
      settled: (attempt) => {
        const { span, failure } = attempt;
        reservation.outcome = { failure };
        ctx.breakers.record(breaker, ctx.tenantId, verdictOf(attempt));
        m.providerCallSeconds.observe({ provider: providerId, kind: call.kind }, span.duration_ms / 1000);
        report(span);
        const ownKey = entry?.apiKey && entry.apiKey !== operatorKey(entry.provider.keyEnv, ctx.env);
        if (failure?.reason === "bad_key" && ownKey) {
          markKeyInvalid({ ctx, input: { provider: providerId } }).catch((error: unknown) =>
            log().warn(error, "marking a refused key invalid failed"),
          );
        }
      },
    };
  };
  async function close(): Promise<Map<string, number>> {
    const kept = new Map<string, number>();
    const refunded: string[] = [];
    for (const [providerId, reservation] of reservations) {
      const failure = reservation.outcome?.failure;
      // Admitted but never run: the call gave up on the admission at its deadline.
      if (!reservation.outcome) reservation.giveBackProbe();
      if (!reservation.outcome || (failure && NOT_BILLED.has(failure.reason))) refunded.push(reservation.id);
      else kept.set(providerId, reservation.costMicros);
    }
    const closed = closeReservations(ctx, {
      kept: [...kept.keys()].map((id) => (reservations.get(id) as Reservation).id),
      refunded,
    }).catch((error: unknown) =>
      log().error(error, "closing reservations failed; the sweep will refund them"),
    );
    // A refund frees budget the caller's next call may need (a retry after a refused key), so the call
    // answers once it is made. Settling kept charges changes no remaining budget (they were reserved at
    // admission), so that runs off the response path: readers of usage wait for it (UsageSink.track),
    // and the sweep refunds whatever a failure here leaves reserved.
    if (refunded.length > 0) await closed;
    else ctx.usage.track(closed);
    return kept;
  }

  return {
    admit: admitHook,
    exhausted,
    close: () => {
      closing ??= close();
      return closing;
    },
  };
}
