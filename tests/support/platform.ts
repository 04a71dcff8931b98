import { randomBytes } from "node:crypto";
import type { Database } from "@/lib/db";
import { createMemoryKv } from "@/lib/kv/memory";
import type { Kv } from "@/lib/kv/types";
import { databaseAdmissions } from "@/lib/pipeline/budgets/admission";
import { createUsageSink } from "@/lib/pipeline/budgets/usage-sink";
import type { Surface } from "@/lib/pipeline/capabilities";
import {
  type Actor,
  type Platform,
  SCOPES,
  type Scope,
  type SystemContext,
  type TenantContext,
} from "@/lib/pipeline/context";
import { kvLearner } from "@/lib/pipeline/contribution/learner";
import { createCircuitBreakers } from "@/lib/pipeline/health/circuit-breaker";
import { parseKeyring } from "@/lib/pipeline/keys/key-encryption";
import { createPendingWork } from "@/lib/pipeline/pending-work";
import { databaseRecords } from "@/lib/pipeline/tenant-records";
import { createTraceSink } from "@/lib/pipeline/traces/trace-sink";

/** A platform over a test database: memory KV unless given, a fresh random keyring, an empty env. */
export function testPlatform(db: Database, overrides: Partial<Platform> = {}): Platform {
  const kv: Kv = overrides.kv ?? createMemoryKv();
  const pending = overrides.pending ?? createPendingWork();
  return {
    db,
    kv,
    records: databaseRecords,
    admissions: databaseAdmissions,
    keyring: parseKeyring(`1:${randomBytes(32).toString("base64")}`),
    traces: overrides.traces ?? createTraceSink(db),
    usage: createUsageSink(db, pending),
    pending,
    breakers: createCircuitBreakers(),
    learner: kvLearner(),
    env: {},
    now: () => new Date(),
    ...overrides,
  };
}

const operator: Actor = { kind: "operator" };

export const systemCtx = (platform: Platform, actor: Actor = operator): SystemContext => ({
  ...platform,
  actor,
});

export const tenantCtx = (
  platform: Platform,
  tenantId: string,
  scopes: readonly Scope[] = SCOPES,
  actor: Actor = operator,
  surface: Surface = "cli",
): TenantContext => ({ ...platform, actor, tenantId, scopes, surface });
