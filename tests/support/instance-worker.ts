/**
 * One "app instance" for multi-instance tests: a separate process with its own database pool and
 * Redis connection, running service code against the shared PostgreSQL and Redis.
 *   tsx tests/support/instance-worker.ts admit <tenantId> <provider> <count>   → prints admitted count
 *   tsx tests/support/instance-worker.ts ratelimit <key> <limit> <count> <nowMs> → prints allowed count
 *   tsx tests/support/instance-worker.ts verify <token>                          → prints tenant id or "refused"
 * Env: DATABASE_URL, REDIS_URL, SEARCHMUX_SECRET_KEY.
 */
import { randomUUID } from "node:crypto";
import { tmpdir } from "node:os";
import { createDatabase } from "@/lib/db/client";
import { createRedisKv } from "@/lib/kv/redis";
import { admit, databaseAdmissions } from "@/lib/pipeline/budgets/admission";
import { createUsageSink } from "@/lib/pipeline/budgets/usage-sink";
import { SCOPES } from "@/lib/pipeline/context";
import { kvLearner } from "@/lib/pipeline/contribution/learner";
import { createCircuitBreakers } from "@/lib/pipeline/health/circuit-breaker";
import { parseKeyring } from "@/lib/pipeline/keys/key-encryption";
import { createPendingWork } from "@/lib/pipeline/pending-work";
import { slidingWindow } from "@/lib/pipeline/rate-limit/sliding-window";
import { databaseRecords } from "@/lib/pipeline/tenant-records";
import { createTraceSink } from "@/lib/pipeline/traces/trace-sink";
import { verifyToken } from "@/lib/services/tokens/verify-token";

const [mode, ...args] = process.argv.slice(2);
const db = await createDatabase({
  driver: "pg",
  url: process.env.DATABASE_URL,
  dataDir: tmpdir(),
  poolSize: 5,
});
const kv = createRedisKv(process.env.REDIS_URL ?? "redis://127.0.0.1:6379");
const pending = createPendingWork();
const platform = {
  db,
  kv,
  records: databaseRecords,
  admissions: databaseAdmissions,
  keyring: parseKeyring(process.env.SEARCHMUX_SECRET_KEY ?? ""),
  traces: createTraceSink(db),
  usage: createUsageSink(db, pending),
  pending,
  breakers: createCircuitBreakers(),
  learner: kvLearner(),
  env: {},
  now: () => new Date(),
};

async function run(): Promise<string> {
  if (mode === "admit") {
    const [tenantId = "", provider = "", count = "0"] = args;
    const ctx = {
      ...platform,
      actor: { kind: "operator" as const },
      tenantId,
      scopes: SCOPES,
      surface: "cli" as const,
    };
    const results = await Promise.all(
      Array.from({ length: Number(count) }, () =>
        admit(ctx, { provider, costMicros: 1000, idempotencyKey: randomUUID() }),
      ),
    );
    return String(results.filter((r) => r.ok).length);
  }
  if (mode === "ratelimit") {
    const [key = "", limit = "0", count = "0", nowMs = "0"] = args;
    const decisions = await Promise.all(
      Array.from({ length: Number(count) }, () => slidingWindow(kv, key, Number(limit), 60, Number(nowMs))),
    );
    return String(decisions.filter((d) => d.ok).length);
  }
  if (mode === "verify") {
    const verified = await verifyToken({ ctx: platform, input: { token: args[0] ?? "" } });
    return verified?.tenantId ?? "refused";
  }
  throw new Error(`unknown mode ${mode}`);
}

try {
  console.log(await run());
} finally {
  await db.close();
  await kv.close();
}
