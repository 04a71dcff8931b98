import type { TenantContext } from "@/lib/pipeline/context";
import { awaitJob } from "./await-job";
import { getResearch } from "./get-research";
import type { ResearchJobView } from "./job-view";

/** Waits for a research job to finish (await-job.ts), telling `onUpdate` of each change of progress. */
export function awaitResearch({
  ctx,
  input,
  signal,
  onUpdate,
}: {
  ctx: TenantContext;
  input: { id: string };
  signal?: AbortSignal;
  onUpdate?: (job: ResearchJobView) => void;
}): Promise<ResearchJobView> {
  return awaitJob(() => getResearch({ ctx, input }), { signal, onUpdate });
}
