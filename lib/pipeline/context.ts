/**
 * What every verb stands on: `verb({ ctx, input })`, where the context holds the platform's capabilities
 * (capabilities.ts), the caller and its scopes. MCP tools, REST handlers, server actions and the CLI all
 * call the same verbs.
 */

import type { z } from "zod";
import type { Database } from "@/lib/db";
import type { ConnectionProfile } from "@/lib/db/schema";
import type { Kv } from "@/lib/kv";
import type {
  Admissions,
  CircuitBreakers,
  ContributionLearner,
  Env,
  Keyring,
  PendingWork,
  Surface,
  TenantRecords,
  TraceSink,
  UsageSink,
} from "./capabilities";
import { ServiceError } from "./errors";

export const SCOPES = ["search", "fetch", "answer", "papers", "mcp", "admin"] as const;
export type Scope = (typeof SCOPES)[number];
/** What a token gets when its creator names no scopes: everything but administration. */
export const DEFAULT_TOKEN_SCOPES: Scope[] = ["search", "fetch", "answer", "papers", "mcp"];
/**
 * What a connected app (an OAuth grant) may hold: never `admin`, which manages the workspace's tokens, keys,
 * budgets and members. A third-party app gets what its tool calls need, and nothing it could use to mint
 * credentials that outlive its grant (docs/decisions.md, "Connected apps never hold admin").
 */
export const CONNECTED_APP_SCOPES: readonly Scope[] = SCOPES.filter((scope) => scope !== "admin");

export type Actor =
  | { kind: "user"; userId: string }
  /** `userId`: the member the token answers to (its creator); null for the operator's tokens. */
  | { kind: "token"; tokenId: string; tokenName: string; userId: string | null }
  /** The operator CLI, acting with full rights on the data it can reach. */
  | { kind: "operator" };

/** The member behind a call: the signed-in user, or the creator of the token used; null for the operator. */
export function actingUserId(actor: Actor): string | null {
  if (actor.kind === "user") return actor.userId;
  return actor.kind === "token" ? actor.userId : null;
}

/**
 * What every verb may use: storage, the key-encryption keyring, operator configuration, a clock. A tool
 * call reaches the tenant's rows, budgets, traces, usage, learned contributions and cache only through
 * `records`, `admissions`, `traces`, `usage`, `learner` and `kv`, never `db`: the operator's context (operator-context.ts) runs the same verbs
 * with implementations of those that need no database.
 */
export interface Platform {
  db: Database;
  kv: Kv;
  /** The calling tenant's own rows: its provider keys, settings and lenses (tenant-records.ts). */
  records: TenantRecords;
  /** Budget admission of provider calls and its settlement (budgets/admission.ts). */
  admissions: Admissions;
  keyring: Keyring;
  /** Operator configuration (provider keys and base URLs), normally process.env. */
  env: Env;
  /** Where tool calls leave their traces. */
  traces: TraceSink;
  /** Where settled calls add the usage no budget limits. */
  usage: UsageSink;
  /** Work a call leaves running after it answers, for the transports to wait for. */
  pending: PendingWork;
  /** Per (key, provider) circuit breakers of this process, counted per tenant. */
  breakers: CircuitBreakers;
  /** What each provider adds to a workspace's fused results, learned from its full fan-outs (auto mode). */
  learner: ContributionLearner;
  now(): Date;
}

export type { ConnectionProfile };

/**
 * Checks a profile for a connection holding `scopes` and answers it as stored (null: none): lib/tools/profile.ts, which
 * reads the tool table (the verbs that store profiles cannot), throwing invalid_input for what it refuses.
 */
export type ProfileRules = (profile: unknown, scopes: readonly Scope[]) => ConnectionProfile | null;

/** Context of a call made on behalf of one tenant. */
export interface TenantContext extends Platform {
  actor: Actor;
  tenantId: string;
  scopes: readonly Scope[];
  /**
   * The connection's profile (its token's or connected app's, narrowed by MCP's `?tools=`): the tools it may
   * list and call within its scopes, and their default arguments. None for sessions and the CLI.
   */
  profile?: ConnectionProfile;
  /** The surface the call came through, recorded on its trace. */
  surface: Surface;
}

/** Context of the few cross-tenant operations (sign-in, tenant creation, token verification). */
export interface SystemContext extends Platform {
  actor: Actor;
}

/** What a verb takes: `verb({ ctx, input })`, the input as callers may write it (before its schema parses it). */
export interface VerbArgs<C, S extends z.ZodType> {
  ctx: C;
  input: z.input<S>;
}

export function assertScope(ctx: TenantContext, scope: Scope): void {
  if (!ctx.scopes.includes(scope))
    throw new ServiceError("forbidden", `this call needs the '${scope}' scope`, { scope });
}
