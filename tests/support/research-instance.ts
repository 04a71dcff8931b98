/**
 * One "app instance" running research jobs, for the test that kills it mid-job: its own process, database
 * pool and worker (short lease, fast heartbeat), against the shared PostgreSQL. It runs until killed.
 *   tsx tests/support/research-instance.ts
 * Env: DATABASE_URL, and the provider variables the jobs need (base URLs, SEARCHMUX_FETCH_ALLOWLIST).
 */
import { tmpdir } from "node:os";
import { createDatabase } from "@/lib/db/client";
import { createMemoryKv } from "@/lib/kv/memory";
import { databaseAdmissions } from "@/lib/pipeline/budgets/admission";
import { createUsageSink } from "@/lib/pipeline/budgets/usage-sink";
import { kvLearner } from "@/lib/pipeline/contribution/learner";
import { createCircuitBreakers } from "@/lib/pipeline/health/circuit-breaker";
import { parseKeyring } from "@/lib/pipeline/keys/key-encryption";
import { createPendingWork } from "@/lib/pipeline/pending-work";
import { databaseRecords } from "@/lib/pipeline/tenant-records";
import { createTraceSink } from "@/lib/pipeline/traces/trace-sink";
import { createResearchWorker } from "@/lib/services/research/worker";

const INSTANCE_LEASE_MS = 1_500;

const db = await createDatabase({
  driver: "pg",
  url: process.env.DATABASE_URL,
  dataDir: tmpdir(),
  poolSize: 3,
});
const pending = createPendingWork();
const platform = {
  db,
  kv: createMemoryKv(),
  records: databaseRecords,
  admissions: databaseAdmissions,
  keyring: parseKeyring(process.env.SEARCHMUX_SECRET_KEY ?? ""),
  traces: createTraceSink(db),
  usage: createUsageSink(db, pending),
  pending,
  breakers: createCircuitBreakers(),
  learner: kvLearner(),
  env: process.env,
  now: () => new Date(),
};
const worker = createResearchWorker({
  concurrency: 1,
  leaseMs: INSTANCE_LEASE_MS,
  heartbeatMs: 300,
  maxAttempts: 3,
});
console.log(worker.owner);
setInterval(() => worker.wake(platform), 200);
