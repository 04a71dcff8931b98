import { z } from "zod";
import type { TenantContext, VerbArgs } from "@/lib/pipeline/context";
import { parseInput } from "@/lib/pipeline/validate";
import { isUnattended } from "./job-lease";
import { type ResearchJobView, toJobView } from "./job-view";
import { withVisibleJob } from "./visibility";
import { wakeResearchWorker } from "./worker";

export const researchIdInput = z.strictObject({ id: z.uuid() });

/**
 * A research job's status, progress and (once done) report; another workspace's job is not found. Reading a
 * job nobody runs (job-lease.ts, `isUnattended`) wakes this instance's worker, which resumes it (or, in its
 * fair order, another job waiting longer): on serverless hosts no instance outlives its requests, so the
 * polls of a job are what keeps it going between cron runs.
 */
export async function getResearch({
  ctx,
  input,
}: VerbArgs<TenantContext, typeof researchIdInput>): Promise<ResearchJobView> {
  const { id } = parseInput(researchIdInput, input);
  const job = await withVisibleJob(ctx, id, { kind: "research" }, async (_tx, row) => row);
  if (isUnattended(job, ctx.now())) wakeResearchWorker(ctx);
  return toJobView(job);
}
