/**
 * The capabilities a verb reaches the world through, as interfaces: the context (context.ts) holds one of
 * each, the modules beside this one implement them for a tenant, and operator-context.ts implements them
 * for the operator, who has no rows, budgets or traces. Nothing here imports an implementation, so the
 * context stands on this module and the implementations stand on both without a cycle.
 */

import type { Database, Tx } from "@/lib/db";
import type { Charge } from "@/lib/db/schema";
import type { ProviderSpan } from "@/lib/engine/shared/types";
import type { Kv } from "@/lib/kv";
import type { FanoutObservation } from "./contribution/observation";

/** Operator configuration (provider keys and base URLs), normally process.env. */
export type Env = Readonly<Record<string, string | undefined>>;

/** What a capability needs of the call it serves; every TenantContext is one. */
export interface TenantScope {
  tenantId: string;
  db: Database;
  env: Env;
  usage: UsageSink;
  now(): Date;
}

export type Surface = "mcp" | "rest" | "playground" | "cli";
export type SpanKind = "search" | "fetch" | "answer" | "papers" | "llm";

/**
 * One provider attempt as a trace stores it: the engine's span (offsets in whole milliseconds, its error
 * redacted) with what it cost. Snake case like the span it comes from, the trace_spans row and the API.
 */
export interface SpanRecord extends ProviderSpan<SpanKind> {
  cost_micros: number;
}

export interface TraceRecord {
  id: string;
  tenantId: string;
  tool: string;
  surface: Surface;
  tokenId: string | null;
  tokenName: string | null;
  /** The member who made the call (see actingUserId). */
  userId: string | null;
  status: "ok" | "partial" | "error";
  durationMs: number;
  cacheHit: boolean;
  input: unknown;
  resultSummary: Record<string, unknown>;
  costMicros: number;
  error: string | null;
  createdAt: Date;
  spans: SpanRecord[];
}

export interface TraceSink {
  record(trace: TraceRecord): void;
  /** Writes everything queued so far; resolves once it is stored (or re-queued after a failure). */
  flush(): Promise<void>;
  /**
   * Resolves once what is queued now has been written (or dropped), batched with the traces of every
   * request finishing within a short window: what transports wait for after a response. It never waits
   * for traces recorded later, so under sustained traffic each request's wait stays one batch long.
   */
  settled(): Promise<void>;
  pending(): number;
}

export interface UsageSink {
  add(tenantId: string, charges: readonly Charge[]): void;
  /** Waits for pending work (a closing reservation adds usage), then writes everything added so far. */
  flush(): Promise<void>;
}

/**
 * Work a call leaves running after it answers: closing its reservations, writing its results to the cache.
 * Transports wait for it after the response (serverless, shutdown), readers of usage before they read.
 */
export interface PendingWork {
  track(work: Promise<unknown>): void;
  /** Resolves once the work tracked so far is over; a failure is logged where it is tracked, never thrown. */
  settled(): Promise<void>;
}

export type BreakerState = "closed" | "open" | "half_open";

export interface CircuitBreakers {
  /** Whether `tenant` may call through `key` now; in half-open state only one probe at a time may. */
  allow(key: string, tenant: string): boolean;
  /** The outcome of an admitted call: healthy, unhealthy, or neutral (says nothing about health). */
  record(key: string, tenant: string, verdict: Verdict): void;
  /** The breaker as `tenant` meets it: its own, or open when a quorum of other tenants' breakers are. */
  state(key: string, tenant: string): BreakerState;
  /** Tenants' breakers that are not closed, by key (`provider:keyhash`). */
  notClosed(): Array<{ key: string; state: Exclude<BreakerState, "closed"> }>;
}

export type Verdict = "healthy" | "unhealthy" | "neutral";

export interface Keyring {
  current: { version: number; key: Buffer };
  byVersion: ReadonlyMap<number, Buffer>;
}

/** A budget's window: its counters reset each day, each month (on its anchor day), or never. */
export type Period = "day" | "month" | "lifetime";

export interface ExhaustedBudget {
  /** A budget the tenant set, or a quota the operator puts on the use of its keys. */
  kind: "budget" | "operator_quota";
  /** The tenant's budget; null for an operator quota. */
  budgetId: string | null;
  /** The budget's provider or `*`; `*` for an operator quota (it counts every provider). */
  provider: string;
  metric: "requests" | "usd";
  period: Period;
  limit: number;
  resetsAt: Date | null;
}

export interface AdmissionRequest {
  provider: string;
  costMicros: number;
  idempotencyKey: string;
  /** The call uses the operator's key or model: the operator's quotas apply too. */
  drawsOnOperator?: boolean;
}

export type AdmissionResult =
  | { ok: true; reservationId: string; replayed: boolean }
  | { ok: false; exhausted: ExhaustedBudget[] };

export interface ClosedReservations {
  kept: readonly string[];
  refunded: readonly string[];
  /** Kept calls priced by use that cost less than was reserved: the charge is lowered to their cost. */
  trimmed?: ReadonlyArray<{ id: string; costMicros: number }>;
}

/**
 * Budget admission as a tool call's ledger (provider-attempts.ts) uses it: admit a fan-out, then close its
 * reservations. A capability of the context: a tenant's runs in the database (`databaseAdmissions`), the
 * operator's admits everything and settles nothing (operator-context.ts).
 */
export interface Admissions {
  admitAll(ctx: TenantScope, requests: AdmissionRequest[]): Promise<AdmissionResult[]>;
  close(ctx: TenantScope, reservations: ClosedReservations): Promise<void>;
}

/**
 * The calling tenant's own rows a tool call reads and writes: its provider keys, web_search settings and
 * lenses, and a key a provider refused marked invalid (tenant-records.ts). The operator's context has no
 * tenant: its reads find nothing and its writes change nothing.
 */
export interface TenantRecords {
  read<T>(ctx: TenantScope, query: (tx: Tx) => Promise<T[]>): Promise<T[]>;
  write(ctx: TenantScope, change: (tx: Tx) => Promise<unknown>): Promise<void>;
}

/** What the contribution learner needs of the call it serves. */
interface LearnerScope {
  tenantId: string;
  kv: Kv;
  pending: PendingWork;
}

/**
 * What web_search's auto mode learns from (contribution/learner.ts): a workspace's recent full fan-outs.
 * The operator's context keeps none, so auto asks every provider there.
 */
export interface ContributionLearner {
  /** The workspace's recent full fan-outs, oldest first. */
  observations(ctx: LearnerScope): Promise<FanoutObservation[]>;
  /** Keeps one full fan-out; the write happens after the response (PendingWork), never failing the call. */
  record(ctx: LearnerScope, observation: Omit<FanoutObservation, "seq">): void;
  /** Whether this search asks every provider, to keep the estimates fresh. */
  explores(): boolean;
}
