import { config } from "@/lib/config";
import { getDatabase } from "@/lib/db";
import { getKv } from "@/lib/kv";
import { databaseAdmissions } from "./budgets/admission";
import { createUsageSink, type UsageSink } from "./budgets/usage-sink";
import type { Actor, Platform, Scope, SystemContext, TenantContext } from "./context";
import { type ContributionLearner, kvLearner } from "./contribution/learner";
import { type CircuitBreakers, createCircuitBreakers } from "./health/circuit-breaker";
import { type Keyring, loadKeyring } from "./keys/key-encryption";
import { databaseRecords } from "./tenant-records";
import { createTraceSink, type Surface, type TraceSink } from "./traces/trace-sink";

// On globalThis: Next.js bundles routes (and instrumentation) separately, and a process must have one
// trace queue and usage queue (flushed on shutdown), one keyring, one set of breakers and one learner.
const shared = globalThis as typeof globalThis & {
  searchmuxPlatform?: {
    keyring?: Keyring;
    traces?: TraceSink;
    usage?: UsageSink;
    breakers: CircuitBreakers;
    learner: ContributionLearner;
  };
};
shared.searchmuxPlatform ??= { breakers: createCircuitBreakers(), learner: kvLearner() };
const singletons = shared.searchmuxPlatform;

/** The process-wide platform: database, KV, keyring (SEARCHMUX_SECRET_KEY), trace sink, breakers, learner and env. */
export async function platform(): Promise<Platform> {
  singletons.keyring ??= loadKeyring(process.env, config().dataDir);
  const db = await getDatabase();
  singletons.traces ??= createTraceSink(db);
  singletons.usage ??= createUsageSink(db);
  return {
    db,
    kv: getKv(),
    records: databaseRecords,
    admissions: databaseAdmissions,
    keyring: singletons.keyring,
    traces: singletons.traces,
    usage: singletons.usage,
    breakers: singletons.breakers,
    learner: singletons.learner,
    env: process.env,
    now: () => new Date(),
  };
}

/** Writes pending traces and usage now (before a CLI exits, on shutdown). */
export async function flushPendingWrites(): Promise<void> {
  await Promise.all([singletons.traces?.flush(), singletons.usage?.flush()]);
}

/** Waits for the batches that will write the traces and usage pending now (after a response). */
export async function pendingWritesSettled(): Promise<void> {
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
