/**
 * Budget admission for the calls a research stage makes after the search (page fetches, model calls).
 * Each attempt goes through the same ledger as a provider call of the tool — circuit breaker, atomic
 * admission, metrics, live progress, a refused own key marked invalid — under its own idempotency key,
 * and is settled, or refunded when the provider does not bill the failure, as soon as it reports back.
 */
import { randomUUID } from "node:crypto";
import type { AdmitHook, ProviderRegistration, ResolvedProvider } from "../../engine/shared/types";
import { release, settle } from "../budgets/admission";
import type { TenantContext } from "../context";
import { attemptLedger, type OnProgress } from "../provider-attempts";
import { NOT_BILLED } from "../tool-call";

export interface StageBudget {
  /** The admission hook for one kind of stage call over these providers. */
  admitter(kind: "fetch" | "llm", entries: readonly ResolvedProvider<ProviderRegistration>[]): AdmitHook;
  /** Waits until every attempt is settled or refunded; the charges kept, per provider, in attempt order. */
  close(): Promise<ReadonlyMap<string, readonly number[]>>;
}

export function stageBudget(ctx: TenantContext, onProgress?: OnProgress): StageBudget {
  const stageId = randomUUID();
  let attempts = 0;
  const pending: Array<Promise<{ error?: unknown }>> = [];
  const kept = new Map<string, number[]>();
  return {
    admitter: (kind, entries) => async (providerId) => {
      const ledger = attemptLedger(ctx, {
        traceId: `${stageId}:${attempts++}`,
        kind,
        entries,
        onProgress,
      });
      const admission = await ledger.admit(providerId);
      const reservation = ledger.reservations.get(providerId);
      if (!admission.ok || reservation === undefined) return admission;
      return {
        ok: true,
        settled: (report) => {
          admission.settled?.(report);
          const refunded = report.failure !== undefined && NOT_BILLED.has(report.failure.reason);
          // Caught here and rethrown by close(), so a database error is never an unhandled rejection.
          pending.push(
            (refunded ? release(ctx, reservation.id) : settle(ctx, reservation.id)).then(
              () => ({}),
              (error: unknown) => ({ error }),
            ),
          );
          if (!refunded) kept.set(providerId, [...(kept.get(providerId) ?? []), reservation.costMicros]);
        },
      };
    },
    async close() {
      const failed = (await Promise.all(pending)).find((outcome) => "error" in outcome);
      if (failed) throw failed.error;
      return kept;
    },
  };
}
