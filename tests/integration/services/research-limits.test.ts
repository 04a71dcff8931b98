/**
 * What one workspace may take of the research queue (security M3): at most MAX_ACTIVE_JOBS queued or running
 * however many starts arrive at once (on PGlite and PostgreSQL), and a burst queued by one workspace does not
 * make another wait for the whole burst: each claim goes to the workspace with the fewest jobs running.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toErrorResponse } from "@/lib/api/errors";
import type { TenantContext } from "@/lib/pipeline/context";
import { claimJob, writeJob } from "@/lib/services/research/job-lease";
import { MAX_ACTIVE_JOBS } from "@/lib/services/research/queue-job";
import { startResearch } from "@/lib/services/research/start-research";
import {
  createResearchWorker,
  DEFAULT_WORKER_SETTINGS,
  type ResearchWorker,
} from "@/lib/services/research/worker";
import { createTenant } from "@/lib/services/tenants/create-tenant";
import { databaseTargets, type TestDatabase } from "@/tests/support/database";
import { systemCtx, tenantCtx, testPlatform } from "@/tests/support/platform";

const LEASE_MS = 60_000;
const shared = globalThis as typeof globalThis & { searchmuxResearchWorker?: ResearchWorker };

describe.each(databaseTargets())("research job limits on $name", (target) => {
  let t: TestDatabase;
  let ownWorker: ResearchWorker | undefined;

  beforeAll(async () => {
    t = await target.create();
    // This process's worker runs nothing: the jobs stay queued, as when every worker is busy, so the
    // counts below are the starts' and claims' alone.
    ownWorker = shared.searchmuxResearchWorker;
    shared.searchmuxResearchWorker = createResearchWorker({ ...DEFAULT_WORKER_SETTINGS, concurrency: 0 });
  });
  afterAll(async () => {
    shared.searchmuxResearchWorker = ownWorker;
    await t?.cleanup();
  });

  async function workspace(): Promise<TenantContext> {
    const platform = testPlatform(t.db);
    const tenant = await createTenant({ ctx: systemCtx(platform), input: { name: `r-${randomUUID()}` } });
    return tenantCtx(platform, tenant.id);
  }
  const start = (ctx: TenantContext, question: string) => startResearch({ ctx, input: { question } });

  it("admits exactly the cap of 12 parallel starts in one workspace and refuses the rest with 429", async () => {
    const ctx = await workspace();
    const outcomes = await Promise.allSettled(
      Array.from({ length: 12 }, (_, i) => start(ctx, `burst question ${i}`)),
    );

    const admitted = outcomes.filter((o) => o.status === "fulfilled");
    const refused = outcomes.flatMap((o) => (o.status === "rejected" ? [o.reason] : []));
    expect(admitted).toHaveLength(MAX_ACTIVE_JOBS);
    expect(refused).toHaveLength(12 - MAX_ACTIVE_JOBS);
    for (const rejection of refused) {
      const response = toErrorResponse(rejection, "test");
      expect(response.status).toBe(429);
      expect(Number(response.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(await response.json()).toMatchObject({
        error: {
          code: "rate_limited",
          message: `this workspace already has ${MAX_ACTIVE_JOBS} research jobs queued or running; wait for one to finish`,
        },
      });
    }
    // Another workspace is not counted against it.
    await expect(start(await workspace(), "another workspace")).resolves.toMatchObject({ status: "queued" });
  });

  it("claims the job of a workspace with nothing running before another workspace's backlog", async () => {
    // Drains what earlier tests queued, so only this test's jobs are claimable.
    while (await claimJob(t.db, "drain", LEASE_MS)) {}
    const a = await workspace();
    const b = await workspace();
    const burst = [];
    for (let i = 0; i < 4; i++) burst.push((await start(a, `a's question ${i}`)).id);
    const bJob = (await start(b, "b's only question")).id;

    const claims: string[] = [];
    for (;;) {
      const claimed = await claimJob(t.db, "worker", LEASE_MS);
      if (!claimed) break;
      claims.push(claimed.id);
    }
    // A's oldest first (nobody runs anything yet), then B's (A has one running, B none), then A's rest.
    expect(claims).toEqual([burst[0], bJob, burst[1], burst[2], burst[3]]);

    for (const id of claims) await writeJob(t.db, { id, owner: "worker" }, { status: "cancelled" });
  });

  it("still takes over a job whose lease lapsed, before another workspace's queued work", async () => {
    while (await claimJob(t.db, "drain", LEASE_MS)) {}
    const a = await workspace();
    const b = await workspace();
    const abandoned = (await start(a, "a's job on a dead instance")).id;
    expect((await claimJob(t.db, "dead-instance", 1))?.id).toBe(abandoned);
    await new Promise((resolve) => setTimeout(resolve, 20)); // past the 1 ms lease, on the database's clock
    const queued = (await start(b, "b's job")).id;

    // A has nothing running under a live lease: its abandoned job is the older, and is taken over.
    expect(await claimJob(t.db, "worker", LEASE_MS)).toMatchObject({ id: abandoned, attempts: 2 });
    expect((await claimJob(t.db, "worker", LEASE_MS))?.id).toBe(queued);
    for (const id of [abandoned, queued])
      await writeJob(t.db, { id, owner: "worker" }, { status: "cancelled" });
  });
});
