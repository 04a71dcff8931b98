import { and, desc, eq, gt, inArray, isNull, max, sql } from "drizzle-orm";
import { apiTokens, oauthClients, oauthGrants, oauthRefreshTokens, users } from "@/lib/db/schema";
import type { TenantContext } from "@/lib/pipeline/context";
import { managedGrants } from "./grant-managers";

/**
 * The workspace's connected apps: grants not revoked whose refresh token still works, newest first, with
 * the client, the scopes, who approved them and when one of their access tokens was last used. Admins see
 * every member's, a member their own (as with tokens).
 */
export async function listConnectedApps({ ctx }: { ctx: TenantContext }) {
  const own = managedGrants(ctx);
  const now = ctx.now();
  const grants = await ctx.db.withTenant(ctx.tenantId, (tx) => {
    const refreshable = tx
      .select({ grantId: oauthRefreshTokens.grantId })
      .from(oauthRefreshTokens)
      .where(
        and(
          eq(oauthRefreshTokens.tenantId, ctx.tenantId),
          isNull(oauthRefreshTokens.rotatedAt),
          gt(oauthRefreshTokens.expiresAt, now),
        ),
      );
    return tx
      .select({
        id: oauthGrants.id,
        clientId: oauthGrants.clientId,
        scopes: oauthGrants.scopes,
        profile: oauthGrants.profile,
        createdAt: oauthGrants.createdAt,
        approvedBy: sql<string | null>`coalesce(${users.name}, ${users.email})`,
        lastUsedAt:
          sql<Date | null>`greatest(${oauthGrants.lastUsedAt}, ${max(apiTokens.lastUsedAt)})`.mapWith(
            apiTokens.lastUsedAt,
          ),
      })
      .from(oauthGrants)
      .leftJoin(users, eq(users.id, oauthGrants.userId))
      .leftJoin(apiTokens, eq(apiTokens.grantId, oauthGrants.id))
      .where(
        and(
          eq(oauthGrants.tenantId, ctx.tenantId),
          isNull(oauthGrants.revokedAt),
          inArray(oauthGrants.id, refreshable),
          own,
        ),
      )
      .groupBy(oauthGrants.id, users.name, users.email)
      .orderBy(desc(oauthGrants.createdAt));
  });
  if (grants.length === 0) return [];
  // Clients are nobody's (system role): their names are read for these grants only.
  const clients = await ctx.db.withSystem((tx) =>
    tx
      .select({ id: oauthClients.id, name: oauthClients.name })
      .from(oauthClients)
      .where(inArray(oauthClients.id, [...new Set(grants.map((grant) => grant.clientId))])),
  );
  const byId = new Map(clients.map((client) => [client.id, client]));
  return grants.map((grant) => ({ ...grant, clientName: byId.get(grant.clientId)?.name ?? grant.clientId }));
}
