import { and, count, eq, gte, or, sql } from "drizzle-orm";
import type { z } from "zod";
import { researchJobs, tenants } from "@/lib/db/schema";
import { actingUserId, assertScope, type TenantContext } from "@/lib/pipeline/context";
import { ServiceError } from "@/lib/pipeline/errors";
import { parseInput } from "@/lib/pipeline/validate";
import { type ResearchInput, researchInput } from "./input";
import { QUEUED, type ResearchJobView, toJobView } from "./job-view";
import { wakeResearchWorker } from "./worker";

/** Jobs of one workspace waiting or running at once; more would only queue behind each other. */
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

/** A hint for a refused start: a research job takes about a minute. */
const RESEARCH_RETRY_SECONDS = 60;

/**
 * Queues a research job and wakes this instance's worker; the caller has its id at once and the job
 * outlives the request (any instance may run it, see worker.ts). It needs the `search` scope only: the
 * pages it reads are its own searches' results, read as part of the research, never a URL the caller names.
 * The tenant row is locked while the workspace's active jobs are counted, so concurrent starts (on any
 * instance) cannot pass MAX_ACTIVE_JOBS together. A start wakes the worker whether it is admitted or
 * refused: a refusal's queued jobs (and abandoned ones) are thereby on their way.
 */
export async function startResearch({
  ctx,
  input,
}: {
  ctx: TenantContext;
  input: z.input<typeof researchInput>;
}): Promise<ResearchJobView> {
  assertScope(ctx, "search");
  const parsed = parseInput(researchInput, input);
  try {
    return toJobView(await queueJob(ctx, parsed));
  } finally {
    wakeResearchWorker(ctx);
  }
}

/** The job's row, inserted unless the workspace's jobs holding a place are at the cap (429). */
async function queueJob(ctx: TenantContext, parsed: ResearchInput) {
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
      .where(and(eq(researchJobs.tenantId, ctx.tenantId), holdsPlace));
    if ((active?.n ?? 0) >= MAX_ACTIVE_JOBS) {
      throw new ServiceError(
        "rate_limited",
        `this workspace already has ${MAX_ACTIVE_JOBS} research jobs queued or running; wait for one to finish`,
        { limit: MAX_ACTIVE_JOBS },
        RESEARCH_RETRY_SECONDS,
      );
    }
    const [inserted] = await tx
      .insert(researchJobs)
      .values({
        tenantId: ctx.tenantId,
        userId: actingUserId(ctx.actor),
        tokenId: ctx.actor.kind === "token" ? ctx.actor.tokenId : null,
        tokenName: ctx.actor.kind === "token" ? ctx.actor.tokenName : null,
        surface: ctx.surface,
        scopes: [...ctx.scopes],
        input: parsed,
        progress: QUEUED,
      })
      .returning();
    return inserted;
  });
  if (!row) throw new Error("unreachable: insert returned no row");
  return row;
}
