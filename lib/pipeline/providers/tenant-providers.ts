import type { ProviderRegistration, ResolvedProvider } from "@/lib/engine/shared/types";
import type { TenantContext } from "@/lib/pipeline/context";
import { needsKey } from "./catalog";
import { providerBaseUrl } from "./operator-providers";
import { priceWithOverrides } from "./prices";
import { resolveProviderKeys } from "./resolve-keys";
import { selectProviders } from "./selection";

export interface TenantProviders<P extends ProviderRegistration> {
  available: ResolvedProvider<P>[];
  /** Known providers the tenant cannot use, with why. */
  unavailable: Map<string, "no_key" | "no_base_url">;
}

/** The providers a tenant can call now: keyless ones, and keyed ones with its own or the operator's key. */
export async function tenantProviders<P extends ProviderRegistration>(
  ctx: TenantContext,
  providers: readonly P[],
): Promise<TenantProviders<P>> {
  const keys = await resolveProviderKeys(
    ctx,
    providers.filter((p) => p.keyEnv.length > 0 || p.configuredByWorkspace).map((p) => p.id),
  );
  const available: ResolvedProvider<P>[] = [];
  const unavailable = new Map<string, "no_key" | "no_base_url">();
  for (const provider of providers) {
    const key = keys.get(provider.id);
    // A provider the workspace configures itself has its base URL stored with its key: without one, no key.
    const baseUrl = provider.configuredByWorkspace
      ? (key?.endpoint?.baseUrl ?? "")
      : providerBaseUrl(provider, ctx.env);
    const apiKey = key?.apiKey;
    if (baseUrl === undefined) unavailable.set(provider.id, "no_base_url");
    else if (needsKey(provider) && !apiKey) unavailable.set(provider.id, "no_key");
    else {
      const endpoint = key?.endpoint && { model: key.endpoint.model, price: key.endpoint.price };
      const effectivePrice = priceWithOverrides(provider.price, ctx.env);
      available.push({ provider, baseUrl, apiKey, effectivePrice, ...(endpoint && { endpoint }) });
    }
  }
  return { available, unavailable };
}

interface Selection<P extends ProviderRegistration> {
  registry: readonly P[];
  /** The caller's explicit provider subset, if any. */
  wanted?: readonly string[];
  /** The tool, for the error when none is available. */
  tool: string;
}

/**
 * The providers a call selects: the tenant's (own key, else the operator's; keyless always), narrowed to
 * the caller's subset. Unknown or unavailable ids are input errors, none available is `no_provider_configured`.
 */
export async function selectedProviders<P extends ProviderRegistration>(
  ctx: TenantContext,
  { registry, wanted, tool }: Selection<P>,
): Promise<ResolvedProvider<P>[]> {
  const { available } = await tenantProviders(ctx, registry);
  return selectProviders(wanted, new Set(registry.map((p) => p.id)), available, tool);
}
