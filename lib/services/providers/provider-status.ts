/**
 * Which providers this workspace can use now, for which kinds of call (search, fetch, answer, papers), whose
 * key pays (its own, the operator's, or none needed) and its last verdict, what its budgets leave, its circuit
 * breaker on this instance, its success rate and latency over the last day, and its status in one word
 * (health-status.ts: paused or probing while the breaker holds calls back, else healthy, degraded, failing or
 * no_data). Served by the MCP resource `searchmux://providers`, `GET /api/v1/providers` and the dashboard,
 * which name the tools of each kind from the tool table (lib/tools/provider-kinds.ts: services never read
 * it). It reuses tenantProviders so availability is decided exactly as for a real call.
 */

import { providerKeys } from "@/lib/db/schema";
import type { TenantContext } from "@/lib/pipeline/context";
import { breakerKey } from "@/lib/pipeline/health/circuit-breaker";
import {
  PROVIDER_REGISTRIES,
  type ProviderKind,
  providerCatalog,
  takesKey,
} from "@/lib/pipeline/providers/catalog";
import { operatorKey } from "@/lib/pipeline/providers/operator-providers";
import { priceWithOverrides } from "@/lib/pipeline/providers/prices";
import { tenantProviders } from "@/lib/pipeline/providers/tenant-providers";
import { budgetStatus } from "@/lib/services/budgets/budget-status";
import { freeTierUsage } from "@/lib/services/budgets/free-tier";
import { providerState } from "@/lib/services/health/health-status";
import { providerHealth } from "@/lib/services/health/provider-health";

type KeySource = "tenant" | "operator" | "not_needed" | "missing";

interface Availability {
  kinds: ProviderKind[];
  apiKey?: string;
  unavailable?: "no_key" | "no_base_url";
}

/** Per provider id: the kinds it can serve for this tenant now, with the key it would use. */
async function availabilityByProvider(ctx: TenantContext): Promise<Map<string, Availability>> {
  const byId = new Map<string, Availability>();
  const entry = (id: string) => {
    const found = byId.get(id) ?? { kinds: [] };
    byId.set(id, found);
    return found;
  };
  for (const [kind, registry] of PROVIDER_REGISTRIES) {
    const { available, unavailable } = await tenantProviders(ctx, registry);
    for (const resolved of available) {
      const found = entry(resolved.provider.id);
      found.kinds.push(kind);
      found.apiKey ??= resolved.apiKey;
    }
    for (const [id, reason] of unavailable) entry(id).unavailable ??= reason;
  }
  return byId;
}

/** The tenant's stored keys' last verdicts (ok, invalid, unknown), by provider. */
async function keyStatuses(ctx: TenantContext): Promise<Map<string, string>> {
  const rows = await ctx.db.withTenant(ctx.tenantId, (tx) =>
    tx.select({ provider: providerKeys.provider, status: providerKeys.status }).from(providerKeys),
  );
  return new Map(rows.map((row) => [row.provider, row.status]));
}

export async function providerStatus({ ctx }: { ctx: TenantContext }) {
  const [status, availability, health, keys] = await Promise.all([
    budgetStatus({ ctx }),
    availabilityByProvider(ctx),
    providerHealth({ ctx }),
    keyStatuses(ctx),
  ]);
  const budgetsOf = (provider: string) =>
    status.budgets
      .filter((b) => b.provider === provider)
      .map(({ metric, period, limit, used, remaining, resets_at }) => ({
        metric,
        period,
        limit,
        used,
        remaining,
        resets_at,
      }));
  const providers = [...providerCatalog().values()].map((catalog) => {
    const found = availability.get(catalog.id) ?? { kinds: [] };
    const keySource: KeySource =
      found.apiKey === undefined
        ? !takesKey(catalog) || catalog.keyOptional
          ? "not_needed"
          : "missing"
        : found.apiKey === operatorKey(catalog.keyEnv, ctx.env)
          ? "operator"
          : "tenant";
    const usage = status.providers.find((p) => p.provider === catalog.id);
    const breaker = ctx.breakers.state(breakerKey(catalog.id, found.apiKey), ctx.tenantId);
    const measured = health.get(catalog.id) ?? null;
    const freeTier = priceWithOverrides(catalog.price, ctx.env).free_tier;
    return {
      provider: catalog.id,
      name: catalog.displayName,
      available: found.kinds.length > 0,
      /** The kinds it serves now; the public response names their tools instead (toProviderStatusResponse). */
      kinds: found.kinds,
      unavailable_reason: found.kinds.length > 0 ? null : (found.unavailable ?? null),
      key_source: keySource,
      key_status: keySource === "tenant" ? (keys.get(catalog.id) ?? null) : null,
      breaker,
      status: providerState(breaker, measured?.status ?? "no_data"),
      health: measured,
      free_tier: usage?.free_tier ?? (freeTier && freeTierUsage(freeTier, 0)),
      budgets: budgetsOf(catalog.id),
    };
  });
  return { providers, all_providers_budgets: budgetsOf("*") };
}
