import { eq, type SQL } from "drizzle-orm";
import { oauthGrants } from "@/lib/db/schema";
import type { TenantContext } from "@/lib/pipeline/context";
import { assertManagesTokens } from "@/lib/services/tokens/token-managers";

/**
 * The filter on oauth_grants for the connected apps the caller manages, as with tokens: every one for the
 * admin scope, a signed-in member the ones they approved; others none (refused).
 */
export function managedGrants(ctx: TenantContext): SQL | undefined {
  assertManagesTokens(ctx);
  if (ctx.scopes.includes("admin") || ctx.actor.kind !== "user") return undefined;
  return eq(oauthGrants.userId, ctx.actor.userId);
}
