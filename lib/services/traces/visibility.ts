import { eq, type SQL, sql } from "drizzle-orm";
import { traces, users } from "@/lib/db/schema";
import type { TenantContext } from "@/lib/pipeline/context";

/**
 * Which of the tenant's traces a caller may read: admins all of them, a token without the admin scope
 * only its own calls, a signed-in member the calls made by them (in the dashboard or with their tokens),
 * the operator without the admin scope none.
 */
export function visibleTraces(ctx: TenantContext): SQL | undefined | "none" {
  if (ctx.scopes.includes("admin")) return undefined;
  if (ctx.actor.kind === "token") return eq(traces.tokenId, ctx.actor.tokenId);
  if (ctx.actor.kind === "user") return eq(traces.userId, ctx.actor.userId);
  return "none";
}

/**
 * Who made a traced call, for a select joined (left) with `users` on `traces.user_id`: their id, and their
 * name or email. The name is null for the operator's calls and for a member no longer in the workspace
 * (users outside it are not readable).
 */
export const traceUserColumns = {
  user_id: traces.userId,
  user_name: sql<string | null>`coalesce(${users.name}, ${users.email})`,
};
