import { and, desc, eq, isNull, sql } from "drizzle-orm";
import { apiTokens, users } from "@/lib/db/schema";
import type { TenantContext } from "@/lib/pipeline/context";
import { managedTokens } from "./token-managers";

/**
 * The tokens the caller manages (token-managers.ts: all for admins, a member's own), newest first; OAuth
 * access tokens are listed as their connected apps instead (oauth/list-connected-apps.ts).
 */
export async function listTokens({ ctx }: { ctx: TenantContext }) {
  const managed = managedTokens(ctx);
  return ctx.db.withTenant(ctx.tenantId, (tx) =>
    tx
      .select({
        id: apiTokens.id,
        name: apiTokens.name,
        scopes: apiTokens.scopes,
        profile: apiTokens.profile,
        displayStart: apiTokens.displayStart,
        last4: apiTokens.last4,
        createdAt: apiTokens.createdAt,
        /** The member who created it; null for the operator's (and a former member's name is not readable). */
        createdBy: apiTokens.createdBy,
        createdByName: sql<string | null>`coalesce(${users.name}, ${users.email})`,
        lastUsedAt: apiTokens.lastUsedAt,
        expiresAt: apiTokens.expiresAt,
        revokedAt: apiTokens.revokedAt,
      })
      .from(apiTokens)
      .leftJoin(users, eq(users.id, apiTokens.createdBy))
      .where(and(eq(apiTokens.tenantId, ctx.tenantId), isNull(apiTokens.grantId), managed))
      .orderBy(desc(apiTokens.createdAt)),
  );
}
