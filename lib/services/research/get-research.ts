import { z } from "zod";
import type { TenantContext, VerbArgs } from "@/lib/pipeline/context";
import { parseInput } from "@/lib/pipeline/validate";
import { type ResearchJobView, toJobView } from "./job-view";
import { withVisibleJob } from "./visibility";

export const researchIdInput = z.strictObject({ id: z.uuid() });

/** A research job's status, progress and (once done) report; another workspace's job is not found. */
export async function getResearch({
  ctx,
  input,
}: VerbArgs<TenantContext, typeof researchIdInput>): Promise<ResearchJobView> {
  const { id } = parseInput(researchIdInput, input);
  return withVisibleJob(ctx, id, {}, async (_tx, job) => toJobView(job));
}
