/**
 * Budget admission for the calls a research stage makes after the search (page fetches, model calls).
 * Each attempt goes through the same ledger as a provider call of the tool — circuit breaker, atomic
 * admission, metrics, live progress, a refused own key marked invalid — under its own idempotency key,
 * and is settled, or refunded when the provider does not bill the failure, as soon as it reports back.
 */
import { randomUUID } from "node:crypto";
import type { AdmitHook, ProviderRegistration, ResolvedProvider } from "@/lib/engine/shared/types";
import type { TenantContext } from "@/lib/pipeline/context";
import { type AttemptLedger, attemptLedger, type OnProgress } from "@/lib/pipeline/provider-attempts";

export interface StageBudget {
  /** The admission hook for one kind of stage call over these providers. */
  admitter(kind: "fetch" | "llm", entries: readonly ResolvedProvider<ProviderRegistration>[]): AdmitHook;
  /** Waits until every attempt is settled or refunded; the charges kept, per provider, in attempt order. */
  close(): Promise<ReadonlyMap<string, readonly number[]>>;
}

export function stageBudget(ctx: TenantContext, onProgress?: OnProgress): StageBudget {
  const stageId = randomUUID();
  let attempts = 0;
  const ledgers: AttemptLedger[] = [];
  return {
    admitter: (kind, entries) => async (providerId, reserveMicros) => {
      const ledger = attemptLedger(ctx, { traceId: `${stageId}:${attempts++}`, kind, entries, onProgress });
      ledgers.push(ledger);
      const admission = await ledger.admit(providerId, reserveMicros);
      if (!admission.ok) return admission;
      return {
        ok: true,
        settled: (report) => {
          admission.settled?.(report);
          // Settled (or refunded) as soon as it reports; a database error surfaces from close().
          ledger.close().catch(() => {});
        },
      };
    },
    async close() {
      const kept = new Map<string, number[]>();
      for (const ledger of ledgers) {
        for (const [providerId, micros] of await ledger.close()) {
          kept.set(providerId, [...(kept.get(providerId) ?? []), ...micros]);
        }
      }
      return kept;
    },
  };
}
