import { desc } from "drizzle-orm";
import { apiTokens } from "@/lib/db/schema";
import { assertScope, type TenantContext } from "@/lib/services/context";

export async function listTokens({ ctx }: { ctx: TenantContext }) {
  assertScope(ctx, "admin");
  return ctx.db.withTenant(ctx.tenantId, (tx) =>
    tx
      .select({
        id: apiTokens.id,
        name: apiTokens.name,
        scopes: apiTokens.scopes,
        displayStart: apiTokens.displayStart,
        last4: apiTokens.last4,
        createdAt: apiTokens.createdAt,
        lastUsedAt: apiTokens.lastUsedAt,
        expiresAt: apiTokens.expiresAt,
        revokedAt: apiTokens.revokedAt,
      })
      .from(apiTokens)
      .orderBy(desc(apiTokens.createdAt)),
  );
}
