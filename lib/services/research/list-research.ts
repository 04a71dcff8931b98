import { and, desc, eq } from "drizzle-orm";
import { z } from "zod";
import { researchJobs } from "@/lib/db/schema";
import type { TenantContext } from "@/lib/pipeline/context";
import { parseInput } from "@/lib/pipeline/validate";
import type { JobRow } from "./job-lease";
import { type ResearchJobView, toJobView } from "./job-view";
import { visibleJobs } from "./visibility";

export const listResearchInput = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(20).describe("Most recent jobs to list (1–100)"),
});

/** The caller's most recent jobs of `kind` it may see (visibility.ts), newest first. */
export async function listJobs(ctx: TenantContext, kind: JobRow["kind"], limit: number): Promise<JobRow[]> {
  const visible = visibleJobs(ctx);
  if (visible === "none") return [];
  return ctx.db.withTenant(ctx.tenantId, (tx) =>
    tx
      .select()
      .from(researchJobs)
      .where(and(eq(researchJobs.tenantId, ctx.tenantId), eq(researchJobs.kind, kind), visible))
      .orderBy(desc(researchJobs.createdAt))
      .limit(limit),
  );
}

/** The caller's most recent research jobs, newest first (reports included). */
export async function listResearch({
  ctx,
  input,
}: {
  ctx: TenantContext;
  input: z.input<typeof listResearchInput>;
}): Promise<{ jobs: ResearchJobView[] }> {
  const { limit } = parseInput(listResearchInput, input);
  return { jobs: (await listJobs(ctx, "research", limit)).map(toJobView) };
}
