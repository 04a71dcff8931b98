import { config } from "@/lib/config";
import { getDatabase } from "@/lib/db";
import { getKv } from "@/lib/kv";
import type {
  CircuitBreakers,
  ContributionLearner,
  Keyring,
  PendingWork,
  Surface,
  TraceSink,
  UsageSink,
} from "@/lib/pipeline/capabilities";
import { databaseAdmissions } from "./budgets/admission";
import { createUsageSink } from "./budgets/usage-sink";
import type { Actor, Platform, Scope, SystemContext, TenantContext } from "./context";
import { kvLearner } from "./contribution/learner";
import { createCircuitBreakers } from "./health/circuit-breaker";
import { loadKeyring } from "./keys/key-encryption";
import { createPendingWork } from "./pending-work";
import { databaseRecords } from "./tenant-records";
import { createTraceSink } from "./traces/trace-sink";

// On globalThis: Next.js bundles routes (and instrumentation) separately, and a process must have one
// trace queue and usage queue (flushed on shutdown), one keyring, one set of breakers and one learner.
const shared = globalThis as typeof globalThis & {
  searchmuxPlatform?: {
    keyring?: Keyring;
    traces?: TraceSink;
    usage?: UsageSink;
    pending: PendingWork;
    breakers: CircuitBreakers;
    learner: ContributionLearner;
  };
};
shared.searchmuxPlatform ??= {
  breakers: createCircuitBreakers(),
  pending: createPendingWork(),
  learner: kvLearner(),
};
const singletons = shared.searchmuxPlatform;

/** This process's key-encryption keys: SEARCHMUX_SECRET_KEY, or the one generated under the data directory. */
export function processKeyring(): Keyring {
  singletons.keyring ??= loadKeyring(process.env, config().dataDir);
  return singletons.keyring;
}

/** The process-wide platform: database, KV, keyring (SEARCHMUX_SECRET_KEY), trace sink, breakers, learner and env. */
export async function platform(): Promise<Platform> {
  const keyring = processKeyring();
  const db = await getDatabase();
  singletons.traces ??= createTraceSink(db);
  singletons.usage ??= createUsageSink(db, singletons.pending);
  return {
    db,
    kv: getKv(),
    records: databaseRecords,
    admissions: databaseAdmissions,
    keyring,
    traces: singletons.traces,
    usage: singletons.usage,
    pending: singletons.pending,
    breakers: singletons.breakers,
    learner: singletons.learner,
    env: process.env,
    now: () => new Date(),
  };
}

/** Waits for work left running by calls, then writes pending traces and usage now (before a CLI exits, on shutdown). */
export async function flushPendingWrites(): Promise<void> {
  await singletons.pending.settled();
  await Promise.all([singletons.traces?.flush(), singletons.usage?.flush()]);
}

/** Waits for work left running by calls and the batches that will write the traces and usage pending now (after a response). */
export async function pendingWritesSettled(): Promise<void> {
  await singletons.pending.settled();
  await Promise.all([singletons.traces?.settled(), singletons.usage?.flush()]);
}

export async function systemContext(actor: Actor): Promise<SystemContext> {
  return { ...(await platform()), actor };
}

export async function tenantContext(
  actor: Actor,
  tenantId: string,
  scopes: readonly Scope[],
  surface: Surface,
): Promise<TenantContext> {
  return { ...(await platform()), actor, tenantId, scopes, surface };
}
