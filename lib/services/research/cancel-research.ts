import type { TenantContext, VerbArgs } from "@/lib/pipeline/context";
import { parseInput } from "@/lib/pipeline/validate";
import { cancelJob } from "./cancel-job";
import { researchIdInput } from "./get-research";
import { type ResearchJobView, toJobView } from "./job-view";

/** Cancels a research job (cancel-job.ts): queued at once, running within a heartbeat. */
export async function cancelResearch({
  ctx,
  input,
}: VerbArgs<TenantContext, typeof researchIdInput>): Promise<ResearchJobView> {
  const { id } = parseInput(researchIdInput, input);
  return toJobView(await cancelJob(ctx, "research", id));
}
