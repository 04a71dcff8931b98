import { asc } from "drizzle-orm";
import { providerKeys } from "@/lib/db/schema";
import { assertScope, type TenantContext } from "@/lib/pipeline/context";
import { storedEndpoint } from "@/lib/pipeline/providers/workspace-model";

/** What a stored workspace endpoint is shown as: its host (a path may hold more than an address), model, price. */
function endpointView(settings: unknown) {
  const endpoint = storedEndpoint(settings);
  if (!endpoint) return null;
  return {
    host: new URL(endpoint.baseUrl).host,
    model: endpoint.model,
    price_per_mtok: { input: endpoint.price.inputPerMillion, output: endpoint.price.outputPerMillion },
  };
}

/** The tenant's stored keys, last 4 characters only, and for the workspace model its host, model and price. */
export async function listKeys({ ctx }: { ctx: TenantContext }) {
  assertScope(ctx, "admin");
  const rows = await ctx.db.withTenant(ctx.tenantId, (tx) =>
    tx
      .select({
        provider: providerKeys.provider,
        last4: providerKeys.last4,
        status: providerKeys.status,
        checkedAt: providerKeys.checkedAt,
        updatedAt: providerKeys.updatedAt,
        settings: providerKeys.settings,
      })
      .from(providerKeys)
      .orderBy(asc(providerKeys.provider)),
  );
  return rows.map(({ settings, ...row }) => ({ ...row, endpoint: endpointView(settings) }));
}
