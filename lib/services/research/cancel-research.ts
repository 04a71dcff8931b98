import { eq, sql } from "drizzle-orm";
import { researchJobs } from "@/lib/db/schema";
import type { TenantContext, VerbArgs } from "@/lib/pipeline/context";
import { ServiceError } from "@/lib/pipeline/errors";
import { parseInput } from "@/lib/pipeline/validate";
import { researchIdInput } from "./get-research";
import { isFinished, type ResearchJobView, toJobView } from "./job-view";
import { withVisibleJob } from "./visibility";

/**
 * Cancels a job: a queued one at once; a running one is asked to stop, and its worker stops within a
 * heartbeat (the provider calls in flight are aborted). A finished job is a conflict.
 */
export async function cancelResearch({
  ctx,
  input,
}: VerbArgs<TenantContext, typeof researchIdInput>): Promise<ResearchJobView> {
  const { id } = parseInput(researchIdInput, input);
  const row = await withVisibleJob(ctx, id, { forUpdate: true }, async (tx, found) => {
    if (isFinished(found.status)) throw new ServiceError("conflict", `research job already ${found.status}`);
    const queued = found.status === "queued";
    const [updated] = await tx
      .update(researchJobs)
      .set({
        cancelRequested: true,
        updatedAt: sql`now()`,
        ...(queued && {
          status: "cancelled" as const,
          finishedAt: sql`now()`,
          progress: { phase: "done", message: "cancelled before it started", done: 0, total: 0 },
        }),
      })
      .where(eq(researchJobs.id, id))
      .returning();
    return updated ?? found;
  });
  return toJobView(row);
}
