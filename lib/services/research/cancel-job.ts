import { eq, sql } from "drizzle-orm";
import { researchJobs } from "@/lib/db/schema";
import type { TenantContext } from "@/lib/pipeline/context";
import { ServiceError } from "@/lib/pipeline/errors";
import type { JobRow } from "./job-lease";
import { isFinished } from "./job-view";
import { withVisibleJob } from "./visibility";

/**
 * Cancels a job of either kind: a queued one at once; a running one is asked to stop, and its worker stops
 * within a heartbeat (the calls in flight are aborted). A finished job is a conflict.
 */
export async function cancelJob(ctx: TenantContext, kind: JobRow["kind"], id: string): Promise<JobRow> {
  return withVisibleJob(ctx, id, { kind, forUpdate: true }, async (tx, found) => {
    if (isFinished(found.status)) throw new ServiceError("conflict", `${kind} job already ${found.status}`);
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
}
