import { and, desc, eq } from "drizzle-orm";
import { z } from "zod";
import { researchJobs } from "@/lib/db/schema";
import type { TenantContext } from "@/lib/pipeline/context";
import { parseInput } from "@/lib/pipeline/validate";
import { type ResearchJobView, toJobView } from "./job-view";
import { visibleJobs } from "./visibility";

export const listResearchInput = z.strictObject({
  limit: z.coerce.number().int().min(1).max(100).default(20).describe("Most recent jobs to list (1–100)"),
});

/** The caller's most recent research jobs, newest first (reports included). */
export async function listResearch({
  ctx,
  input,
}: {
  ctx: TenantContext;
  input: z.input<typeof listResearchInput>;
}): Promise<{ jobs: ResearchJobView[] }> {
  const { limit } = parseInput(listResearchInput, input);
  const visible = visibleJobs(ctx);
  if (visible === "none") return { jobs: [] };
  const rows = await ctx.db.withTenant(ctx.tenantId, (tx) =>
    tx
      .select()
      .from(researchJobs)
      .where(and(eq(researchJobs.tenantId, ctx.tenantId), visible))
      .orderBy(desc(researchJobs.createdAt))
      .limit(limit),
  );
  return { jobs: rows.map(toJobView) };
}
