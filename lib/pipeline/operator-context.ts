/**
 * The operator's context: what the CLI without --tenant and the local stdio bridge (`npx searchmux mcp`
 * without SEARCHMUX_URL) run the tenants' own verbs with, through the tool table. The same code path as a
 * tenant's call, with the capabilities that need a database replaced: no stored keys, settings or lenses
 * (the operator's keys come from the environment, operator-providers.ts), budgets that admit everything
 * and settle nothing, no traces, no usage, nothing learned (auto asks every provider, as fanout does). Its KV lives in the process: the result cache and the fetched
 * documents later windows are paged from.
 */
import { randomUUID } from "node:crypto";
import type { Database } from "@/lib/db";
import { createMemoryKv } from "@/lib/kv/memory";
import type {
  Admissions,
  Env,
  Keyring,
  Surface,
  TenantRecords,
  TraceSink,
  UsageSink,
} from "@/lib/pipeline/capabilities";
import { SCOPES, type TenantContext } from "./context";
import { noLearner } from "./contribution/learner";
import { ServiceError } from "./errors";
import { createCircuitBreakers } from "./health/circuit-breaker";
import { createPendingWork } from "./pending-work";

/** The in-process KV: enough for a few hundred-page PDFs and many results, small beside the process. */
const OPERATOR_KV_MAX_BYTES = 32 * 1024 * 1024;

/** The operator has no rows of its own: nothing to read, nothing to change. */
const noRecords: TenantRecords = {
  read: async () => [],
  write: async () => {},
};

/** Every provider call is admitted; there is nothing to settle or refund. */
const admitEverything: Admissions = {
  admitAll: async (_ctx, requests) =>
    requests.map(() => ({ ok: true, reservationId: randomUUID(), replayed: false })),
  close: async () => {},
};

const noTraces: TraceSink = {
  record: () => {},
  flush: async () => {},
  settled: async () => {},
  pending: () => 0,
};

/** No usage is counted. */
const noUsage: UsageSink = {
  add: () => {},
  flush: async () => {},
};

const withoutDatabase = async (): Promise<never> => {
  throw new ServiceError(
    "invalid_input",
    "this needs a workspace's database; the operator's calls have none (the CLI takes --tenant ID)",
  );
};

/**
 * A database that refuses every use: a tool call reaches stored data through the context's capabilities,
 * so nothing on the operator's path gets here; a tool that needs a workspace (research, budget_status)
 * says so.
 */
const noDatabase: Database = {
  withTenant: withoutDatabase,
  withSystem: withoutDatabase,
  callFunction: withoutDatabase,
  migrate: withoutDatabase,
  pendingMigrations: withoutDatabase,
  ping: withoutDatabase,
  close: async () => {},
  closed: true,
};

/** The operator stores no provider keys, so it never seals or opens one. */
const noKeyring: Keyring = { current: { version: 0, key: Buffer.alloc(0) }, byVersion: new Map() };

/**
 * The operator, with every scope, over `env`'s provider keys and base URLs. `surface` sizes results as for
 * a tenant (MCP's smaller fetch windows for the bridge). One context per process: its KV and circuit
 * breakers last as long as it does.
 */
export function operatorContext(env: Env, surface: Surface): TenantContext {
  return {
    db: noDatabase,
    kv: createMemoryKv({ maxBytes: OPERATOR_KV_MAX_BYTES }),
    records: noRecords,
    admissions: admitEverything,
    keyring: noKeyring,
    env,
    traces: noTraces,
    usage: noUsage,
    pending: createPendingWork(),
    breakers: createCircuitBreakers(),
    learner: noLearner,
    now: () => new Date(),
    actor: { kind: "operator" },
    tenantId: "operator",
    scopes: SCOPES,
    surface,
  };
}

/** A response of the operator's: its call left no trace, so it names none. */
export function untraced<Response extends object>(response: Response): Response {
  return "trace_id" in response ? { ...response, trace_id: null } : response;
}
