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

/**
 * The tenant's stored keys, last 4 characters only, and for the workspace model its host, model and price;
 * `quotaUntil` while the provider's refusal for the key's quota, credit or payment limit pauses it.
 */
export async function listKeys({ ctx }: { ctx: TenantContext }) {
  assertScope(ctx, "admin");
  const rows = await ctx.db.withTenant(ctx.tenantId, (tx) =>
    tx
      .select({
        provider: providerKeys.provider,
        last4: providerKeys.last4,
        status: providerKeys.status,
        checkedAt: providerKeys.checkedAt,
        quotaUntil: providerKeys.quotaUntil,
        updatedAt: providerKeys.updatedAt,
        settings: providerKeys.settings,
      })
      .from(providerKeys)
      .orderBy(asc(providerKeys.provider)),
  );
  const now = ctx.now();
  return rows.map(({ settings, quotaUntil, ...row }) => ({
    ...row,
    // A pause that has ended says nothing any more: the key is asked again.
    quotaUntil: quotaUntil && quotaUntil > now ? quotaUntil : null,
    endpoint: endpointView(settings),
  }));
}
