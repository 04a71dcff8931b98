/**
 * Budget admission on the benchmark's database (PostgreSQL with DATABASE_URL): 1,000 admissions of one
 * tenant for one provider, 50 in flight, through the product's `admit` (reservation row plus one
 * conditional upsert over every counter), with a hard cap below the demand so the run also proves
 * exactness: admitted = cap, counter = cap, the rest refused.
 */
import { randomUUID } from "node:crypto";
import { tmpdir } from "node:os";
import type { BenchTarget } from "@/bench/support/bench-target";
import { ownPeakRss, timedCalls } from "@/bench/support/timed-calls";
import { createDatabase } from "@/lib/db/client";
import { admit } from "@/lib/pipeline/budgets/admission";
import { ledger } from "@/tests/reliability/support/ledger";
import { percentiles } from "@/tests/reliability/support/stats";
import { seedTenant } from "@/tests/reliability/support/tenant";
import { testPlatform } from "@/tests/support/platform";
import type { ScenarioResult } from "./scenario";

/** The product's default pool size (lib/db): what one app instance has. */
const POOL_SIZE = 10;

export async function admissions(
  target: BenchTarget,
  options: { attempts: number; cap: number; concurrency: number },
): Promise<ScenarioResult> {
  const db = await createDatabase({
    driver: "pg",
    url: target.databaseUrl,
    dataDir: tmpdir(),
    poolSize: POOL_SIZE,
  });
  try {
    const platform = testPlatform(db);
    const tenant = await seedTenant(platform, {
      name: "bench-admissions",
      budgets: [{ provider: "brave", metric: "requests", period: "lifetime", limit: options.cap }],
    });
    const { result: run, peakMb } = await ownPeakRss(() =>
      timedCalls(options.attempts, options.concurrency, async () => {
        const admission = await admit(tenant.ctx, {
          provider: "brave",
          costMicros: 5_000,
          idempotencyKey: randomUUID(),
        });
        return admission.ok;
      }),
    );
    const admitted = run.results.filter((r) => r.value).length;
    const used = (await ledger(db, tenant.tenantId)).requests.brave ?? 0;
    const exact = admitted === options.cap && used === options.cap;
    return {
      id: "admissions",
      title: `${options.attempts.toLocaleString("en")} budget admissions (${target.databaseName})`,
      figure: `admit() latency, one tenant, ${options.concurrency} in flight, pool of ${POOL_SIZE}`,
      latencyMs: percentiles(run.results.map((r) => r.ms)),
      samples: run.results.length,
      requestsPerSecond: (run.results.length / run.elapsedMs) * 1000,
      errors: exact ? 0 : 1,
      peakRssMb: peakMb,
      rssOf: "bench",
      notes: `cap ${options.cap}: ${admitted} admitted, ${run.results.length - admitted} refused, counter ${used}${exact ? "" : " — NOT EXACT"}`,
    };
  } finally {
    await db.close();
  }
}
