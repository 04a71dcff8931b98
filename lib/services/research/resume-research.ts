import type { Platform } from "@/lib/pipeline/context";
import { researchWorker } from "./worker";

/**
 * Resumes the research jobs nobody runs: queued ones no instance claimed (a serverless function frozen or
 * cut off first) and running ones whose lease lapsed (their instance died), each from its checkpoint, in
 * the worker's fair order. A bounded batch: as many as this instance's worker has room for (2), claimed now
 * and run in the background, so a run answers at once and a serverless function kept alive for it
 * (lib/api/research-work.ts) ends with them; the next run takes more. Resolves to how many jobs it claimed.
 */
export function resumeResearchJobs(ctx: Platform): Promise<number> {
  return researchWorker().takeJobs(ctx);
}
