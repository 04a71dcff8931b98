import type { TenantContext } from "@/lib/pipeline/context";
import { type HealthStatus, healthStatus } from "./health-status";
import { providerHealthRows } from "./provider-health-rows";

export interface ProviderHealth {
  provider: string;
  /** Attempts that reached the provider in the window. */
  calls: number;
  /** Share of those that answered (with results or empty), 0..1. */
  success_rate: number;
  p50_ms: number;
  p95_ms: number;
  /** healthy (≥ 95 % answered), degraded (≥ 50 %) or failing; rows exist only with calls. */
  status: HealthStatus;
}

/** Window of recent calls the health figures describe. */
const HEALTH_WINDOW_HOURS = 24;

/**
 * Recent success rate and latency per provider for this tenant, from its trace spans: the same calls
 * its traces show, on every instance. Skipped attempts and cache hits never reached a provider and
 * are left out.
 */
export async function providerHealth({ ctx }: { ctx: TenantContext }): Promise<Map<string, ProviderHealth>> {
  const since = new Date(ctx.now().getTime() - HEALTH_WINDOW_HOURS * 3_600_000);
  const rows = await providerHealthRows(ctx.db, { since, scope: { tenantId: ctx.tenantId } });
  return new Map(
    rows
      .filter((row) => row.attempts > 0)
      .map((row) => [
        row.provider,
        {
          provider: row.provider,
          calls: row.attempts,
          success_rate: row.success_rate ?? 0,
          p50_ms: row.p50_ms ?? 0,
          p95_ms: row.p95_ms ?? 0,
          status: healthStatus(row.attempts, row.success_rate),
        },
      ]),
  );
}
