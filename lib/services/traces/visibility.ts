import { eq, type SQL } from "drizzle-orm";
import { traces } from "@/lib/db/schema";
import type { TenantContext } from "@/lib/services/context";

/**
 * Which of the tenant's traces a caller may read: admins all of them, a token without the admin scope
 * only its own calls, other callers none.
 */
export function visibleTraces(ctx: TenantContext): SQL | undefined | "none" {
  if (ctx.scopes.includes("admin")) return undefined;
  if (ctx.actor.kind === "token") return eq(traces.tokenId, ctx.actor.tokenId);
  return "none";
}
