import { and, eq, or, type SQL } from "drizzle-orm";
import type { Tx } from "@/lib/db";
import { researchJobs } from "@/lib/db/schema";
import type { TenantContext } from "@/lib/pipeline/context";
import { ServiceError } from "@/lib/pipeline/errors";
import type { JobRow } from "./job-lease";

/**
 * Which of the tenant's jobs (research and crawl alike) a caller may see and cancel: admins all of them; a member the jobs
 * they started, with any of their tokens or in the dashboard (a job outlives the token that started it:
 * OAuth access tokens rotate within the hour); a token of no member (the operator's) only its own.
 */
export function visibleJobs(ctx: TenantContext): SQL | undefined | "none" {
  if (ctx.scopes.includes("admin")) return undefined;
  const { actor } = ctx;
  if (actor.kind === "user") return eq(researchJobs.userId, actor.userId);
  if (actor.kind === "token") {
    const own = eq(researchJobs.tokenId, actor.tokenId);
    return actor.userId === null ? own : or(own, eq(researchJobs.userId, actor.userId));
  }
  return "none";
}

/**
 * Runs `fn` on the job `id` of `kind` in the caller's tenant transaction (locked for update when asked); a
 * job the caller may not see, of another kind, or of another workspace, is not found.
 */
export async function withVisibleJob<T>(
  ctx: TenantContext,
  id: string,
  { kind, forUpdate = false }: { kind: JobRow["kind"]; forUpdate?: boolean },
  fn: (tx: Tx, job: JobRow) => Promise<T>,
): Promise<T> {
  const visible = visibleJobs(ctx);
  const result =
    visible === "none"
      ? undefined
      : await ctx.db.withTenant(ctx.tenantId, async (tx) => {
          const query = tx
            .select()
            .from(researchJobs)
            .where(and(eq(researchJobs.id, id), eq(researchJobs.kind, kind), visible));
          const [job] = forUpdate ? await query.for("update") : await query;
          return job && { value: await fn(tx, job) };
        });
  if (!result) throw new ServiceError("not_found", `${kind} job not found`);
  return result.value;
}
