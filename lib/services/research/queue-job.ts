import { and, count, eq, gte, or, sql } from "drizzle-orm";
import { researchJobs, tenants } from "@/lib/db/schema";
import { actingUserId, type TenantContext } from "@/lib/pipeline/context";
import { ServiceError } from "@/lib/pipeline/errors";
import type { JobRow } from "./job-lease";
import { wakeResearchWorker } from "./worker";

/** Jobs of one kind a workspace may have waiting or running at once; more would only queue behind each other. */
export const MAX_ACTIVE_JOBS = 5;

/**
 * The jobs that hold a place under the cap: queued ones, and running ones under a live lease. A running job
 * whose lease lapsed (its instance died) holds none: it is resumed by the next wake, and until then it must not
 * keep the workspace from starting jobs. Lease times are the database's clock.
 */
const holdsPlace = or(
  eq(researchJobs.status, "queued"),
  and(eq(researchJobs.status, "running"), gte(researchJobs.leaseExpiresAt, sql`now()`)),
);

/**
 * Queues a job of `kind` as the caller (their rights, recorded on its row) and wakes this instance's worker;
 * the job outlives the request (any instance may run it, see worker.ts). The tenant row is locked while the
 * workspace's active jobs of that kind are counted, so concurrent starts (on any instance) cannot pass
 * MAX_ACTIVE_JOBS together (429 past it, `retryAfterSeconds` the hint). A start wakes the worker whether it
 * is admitted or refused: a refusal's queued jobs (and abandoned ones) are thereby on their way.
 */
export async function queueJob(
  ctx: TenantContext,
  job: { kind: JobRow["kind"]; input: unknown; progress: unknown; retryAfterSeconds: number },
): Promise<JobRow> {
  try {
    const row = await ctx.db.withTenant(ctx.tenantId, async (tx) => {
      // NO KEY UPDATE: serialises the starts of one workspace without blocking inserts that reference it.
      const [tenant] = await tx
        .select({ id: tenants.id })
        .from(tenants)
        .where(eq(tenants.id, ctx.tenantId))
        .for("no key update");
      if (!tenant) throw new ServiceError("not_found", "tenant not found");
      const [active] = await tx
        .select({ n: count() })
        .from(researchJobs)
        .where(and(eq(researchJobs.tenantId, ctx.tenantId), eq(researchJobs.kind, job.kind), holdsPlace));
      if ((active?.n ?? 0) >= MAX_ACTIVE_JOBS) {
        throw new ServiceError(
          "rate_limited",
          `this workspace already has ${MAX_ACTIVE_JOBS} ${job.kind} jobs queued or running; wait for one to finish`,
          { limit: MAX_ACTIVE_JOBS },
          job.retryAfterSeconds,
        );
      }
      const [inserted] = await tx
        .insert(researchJobs)
        .values({
          tenantId: ctx.tenantId,
          kind: job.kind,
          userId: actingUserId(ctx.actor),
          tokenId: ctx.actor.kind === "token" ? ctx.actor.tokenId : null,
          tokenName: ctx.actor.kind === "token" ? ctx.actor.tokenName : null,
          surface: ctx.surface,
          scopes: [...ctx.scopes],
          input: job.input,
          progress: job.progress,
        })
        .returning();
      return inserted;
    });
    if (!row) throw new Error("unreachable: insert returned no row");
    return row;
  } finally {
    wakeResearchWorker(ctx);
  }
}
