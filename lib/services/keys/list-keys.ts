import { asc } from "drizzle-orm";
import { providerKeys } from "@/lib/db/schema";
import { assertScope, type TenantContext } from "@/lib/pipeline/context";

/** The tenant's stored keys, last 4 characters only. */
export async function listKeys({ ctx }: { ctx: TenantContext }) {
  assertScope(ctx, "admin");
  return ctx.db.withTenant(ctx.tenantId, (tx) =>
    tx
      .select({
        provider: providerKeys.provider,
        last4: providerKeys.last4,
        status: providerKeys.status,
        checkedAt: providerKeys.checkedAt,
        updatedAt: providerKeys.updatedAt,
      })
      .from(providerKeys)
      .orderBy(asc(providerKeys.provider)),
  );
}
