"use server";

import type { z } from "zod";
import { keepWorkingAfterResponse } from "@/lib/api/research-work";
import { toActionError } from "@/lib/dashboard/action-errors";
import type { ActionState } from "@/lib/dashboard/action-state";
import { dashboardSession } from "@/lib/dashboard/session";
import { limitSignedInUser } from "@/lib/pipeline/rate-limit/limits";
import { cancelResearch } from "@/lib/services/research/cancel-research";
import { getResearch } from "@/lib/services/research/get-research";
import type { researchInput } from "@/lib/services/research/input";
import type { ResearchJobView } from "@/lib/services/research/job-view";
import { listResearch } from "@/lib/services/research/list-research";
import { startResearch } from "@/lib/services/research/start-research";

/** Jobs the playground lists under the Research tab. */
const RECENT_JOBS = 10;

/**
 * Queues a research job for the signed-in user, within the same per-minute limit as the playground's
 * other runs (the job spends the same providers and budgets); the browser then polls it.
 */
export async function startResearchAction(
  input: Record<string, unknown>,
): Promise<ActionState<ResearchJobView>> {
  const { session, ctx } = await dashboardSession();
  try {
    const limit = await limitSignedInUser(ctx, session.user.id);
    if (!limit.ok) {
      return {
        status: "error",
        message: `Rate limit of ${limit.limit} runs a minute reached; try again in ${limit.retryAfter} s.`,
      };
    }
    // The verb checks the form's fields with its own schema, as REST passes its body on.
    keepWorkingAfterResponse();
    const job = await startResearch({ ctx, input: input as z.input<typeof researchInput> });
    return { status: "success", data: job };
  } catch (error) {
    return toActionError(error);
  }
}

/** A job's status, progress and report: what the playground polls while it runs (resuming a job nobody runs). */
export async function researchJobAction(id: string): Promise<ActionState<ResearchJobView>> {
  const { ctx } = await dashboardSession();
  try {
    keepWorkingAfterResponse();
    return { status: "success", data: await getResearch({ ctx, input: { id } }) };
  } catch (error) {
    return toActionError(error);
  }
}

export async function cancelResearchAction(id: string): Promise<ActionState<ResearchJobView>> {
  const { ctx } = await dashboardSession();
  try {
    return { status: "success", data: await cancelResearch({ ctx, input: { id } }) };
  } catch (error) {
    return toActionError(error);
  }
}

/** The user's most recent jobs (an admin's: the workspace's), newest first. */
export async function recentResearchAction(): Promise<ActionState<ResearchJobView[]>> {
  const { ctx } = await dashboardSession();
  try {
    const { jobs } = await listResearch({ ctx, input: { limit: RECENT_JOBS } });
    return { status: "success", data: jobs };
  } catch (error) {
    return toActionError(error);
  }
}
