/**
 * After a load: waits until the instances are idle (no reservation open, trace count stable), then
 * compares what providers actually received with what the load's tenants were charged, and the trace
 * ids clients were given with the traces stored. Only the load's tenants call providers on a stack, so
 * every provider call the fakes saw belongs to one of them.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { type LedgerSnapshot, ledger, spanOutcomes, storedTraceIds } from "./ledger";
import { FIVE_PROVIDERS } from "./server-env";
import type { Stack } from "./stack";

/**
 * The direct fetcher's provider id (it reads the loopback pages). It is the free first step of the fetch
 * waterfall: never admitted against budgets, so never counted in usage, but traced like any step.
 */
const DIRECT = "direct";

interface ProviderAccount {
  /** Whether calls of this provider are admitted and counted (every provider but the direct fetcher). */
  counted: boolean;
  /** Requests the fake provider (or the page site, for the direct fetcher) received. */
  received: number;
  /** The tenants' lifetime request counters, summed. */
  charged: number;
  /** Trace spans recording a call that answered (ok or empty). */
  completedSpans: number;
  /** Trace spans recording an attempt that was not skipped (also errors and timeouts). */
  attemptedSpans: number;
  /** Trace spans recording a timeout: charged, as the provider may have received the request. */
  timedOutSpans: number;
}

export interface Accounting {
  providers: Record<string, ProviderAccount>;
  /** The tenants' ledgers, summed. */
  ledger: LedgerSnapshot;
  /** Trace ids handed to clients with no stored trace. */
  missingTraces: string[];
}

function sum(a: LedgerSnapshot, b: LedgerSnapshot): LedgerSnapshot {
  const requests = { ...a.requests };
  for (const [provider, used] of Object.entries(b.requests))
    requests[provider] = (requests[provider] ?? 0) + used;
  return {
    requests,
    reservations: {
      reserved: a.reservations.reserved + b.reservations.reserved,
      settled: a.reservations.settled + b.reservations.settled,
      released: a.reservations.released + b.reservations.released,
    },
    traces: a.traces + b.traces,
    rows: {
      tokens: a.rows.tokens + b.rows.tokens,
      budgets: a.rows.budgets + b.rows.budgets,
      keys: a.rows.keys + b.rows.keys,
      audit: a.rows.audit + b.rows.audit,
    },
  };
}

export async function combinedLedger(stack: Stack, tenantIds: readonly string[]): Promise<LedgerSnapshot> {
  const snapshots = await Promise.all(tenantIds.map((id) => ledger(stack.database.db, id)));
  return snapshots.reduce(sum);
}

/** Usage counters not limited by a budget are added in batches after the calls settle: wait for them too. */
async function whenIdle(
  stack: Stack,
  tenantIds: readonly string[],
  timeoutMs: number,
): Promise<LedgerSnapshot> {
  const deadline = Date.now() + timeoutMs;
  let previous = await combinedLedger(stack, tenantIds);
  for (;;) {
    await sleep(1_000);
    const current = await combinedLedger(stack, tenantIds);
    const stable =
      JSON.stringify(current) === JSON.stringify(previous) && current.reservations.reserved === 0;
    if (stable || Date.now() > deadline) return current;
    previous = current;
  }
}

export async function accountFor(
  stack: Stack,
  tenantIds: readonly string[],
  traceIds: readonly string[],
  timeoutMs = 20_000,
): Promise<Accounting> {
  const snapshot = await whenIdle(stack, tenantIds, timeoutMs);
  const completedSpans: Record<string, number> = {};
  const attemptedSpans: Record<string, number> = {};
  const timedOutSpans: Record<string, number> = {};
  const stored = new Set<string>();
  for (const tenantId of tenantIds) {
    const spans = await spanOutcomes(stack.database.db, tenantId);
    for (const [provider, outcomes] of Object.entries(spans)) {
      const completed = (outcomes.ok ?? 0) + (outcomes.empty ?? 0);
      completedSpans[provider] = (completedSpans[provider] ?? 0) + completed;
      attemptedSpans[provider] =
        (attemptedSpans[provider] ?? 0) + completed + (outcomes.error ?? 0) + (outcomes.timeout ?? 0);
      timedOutSpans[provider] = (timedOutSpans[provider] ?? 0) + (outcomes.timeout ?? 0);
    }
    for (const id of await storedTraceIds(stack.database.db, tenantId, traceIds)) stored.add(id);
  }
  const account = (provider: string, received: number): ProviderAccount => ({
    counted: provider !== DIRECT,
    received,
    charged: snapshot.requests[provider] ?? 0,
    completedSpans: completedSpans[provider] ?? 0,
    attemptedSpans: attemptedSpans[provider] ?? 0,
    timedOutSpans: timedOutSpans[provider] ?? 0,
  });
  const providers: Record<string, ProviderAccount> = {};
  for (const id of FIVE_PROVIDERS) providers[id] = account(id, stack.fake.requests(id).length);
  providers[DIRECT] = account(DIRECT, stack.site.hits().length);
  return { providers, ledger: snapshot, missingTraces: traceIds.filter((id) => !stored.has(id)) };
}
