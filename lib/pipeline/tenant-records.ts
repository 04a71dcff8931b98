import type { TenantRecords } from "@/lib/pipeline/capabilities";

/** A tenant's rows in the database, in its row-level scope. */
export const databaseRecords: TenantRecords = {
  read: (ctx, query) => ctx.db.withTenant(ctx.tenantId, query),
  async write(ctx, change) {
    await ctx.db.withTenant(ctx.tenantId, change);
  },
};
