import { tenants } from "@/lib/db/schema";
import type { TenantContext } from "@/lib/pipeline/context";
import { ServiceError } from "@/lib/pipeline/errors";

/** The workspace's name and settings. */
export async function getTenant({ ctx }: { ctx: TenantContext }) {
  const [tenant] = await ctx.db.withTenant(ctx.tenantId, (tx) =>
    tx
      .select({
        id: tenants.id,
        name: tenants.name,
        createdAt: tenants.createdAt,
        rateLimitRpm: tenants.rateLimitRpm,
        traceRetentionDays: tenants.traceRetentionDays,
        groundedSnippets: tenants.groundedSnippets,
        defaultSearchMode: tenants.defaultSearchMode,
      })
      .from(tenants),
  );
  if (!tenant) throw new ServiceError("not_found", "tenant not found");
  return tenant;
}
