import { config } from "../config";
import { getDatabase } from "../db";
import { getKv } from "../kv";
import type { Actor, Platform, Scope, SystemContext, TenantContext } from "./context";
import { type CircuitBreakers, createCircuitBreakers } from "./health/circuit-breaker";
import { type Keyring, loadKeyring } from "./keys/key-encryption";
import { createTraceSink, type Surface, type TraceSink } from "./traces/trace-sink";

// On globalThis: Next.js bundles routes (and instrumentation) separately, and a process must have one
// trace queue (flushed on shutdown), one keyring and one set of breakers.
const shared = globalThis as typeof globalThis & {
  searchmuxPlatform?: { keyring?: Keyring; traces?: TraceSink; breakers: CircuitBreakers };
};
shared.searchmuxPlatform ??= { breakers: createCircuitBreakers() };
const singletons = shared.searchmuxPlatform;

/** The process-wide platform: database, KV, keyring (SEARCHMUX_SECRET_KEY), trace sink, breakers and env. */
export async function platform(): Promise<Platform> {
  singletons.keyring ??= loadKeyring(process.env, config().dataDir);
  const db = await getDatabase();
  singletons.traces ??= createTraceSink(db);
  return {
    db,
    kv: getKv(),
    keyring: singletons.keyring,
    traces: singletons.traces,
    breakers: singletons.breakers,
    env: process.env,
    now: () => new Date(),
  };
}

/** Writes pending traces now (before a CLI exits, on shutdown). */
export async function flushTraces(): Promise<void> {
  await singletons.traces?.flush();
}

/** Waits for the batch that will write the traces pending now (after a response). */
export async function tracesSettled(): Promise<void> {
  await singletons.traces?.settled();
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
