import { z } from "zod";
import type { SystemContext, VerbArgs } from "@/lib/pipeline/context";
import { providerCatalog } from "@/lib/pipeline/providers/catalog";
import { parseInput } from "@/lib/pipeline/validate";
import { healthStatus } from "@/lib/services/health/health-status";
import { providerHealthRows } from "@/lib/services/health/provider-health-rows";
import { assertOperator } from "./operator";

export const providerHealthAcrossTenantsInput = z.strictObject({
  hours: z
    .number()
    .int()
    .min(1)
    .max(24 * 30)
    .default(24),
});

/**
 * How each provider fared for every tenant over the last `hours`, from the trace spans: attempts,
 * successes, errors, timeouts, calls skipped for budget or breaker, and p50/p95 latency of the calls that
 * went out, and the status they add up to (health-status.ts); the most used first. Operator only.
 */
export async function providerHealthAcrossTenants({
  ctx,
  input,
}: VerbArgs<SystemContext, typeof providerHealthAcrossTenantsInput>) {
  await assertOperator(ctx);
  const { hours } = parseInput(providerHealthAcrossTenantsInput, input);
  const since = new Date(ctx.now().getTime() - hours * 3_600_000);
  const rows = await providerHealthRows(ctx.db, { since, scope: { allTenants: true } });
  const catalog = providerCatalog();
  return {
    since: since.toISOString(),
    providers: rows.map((row) => ({
      ...row,
      name: catalog.get(row.provider)?.displayName ?? row.provider,
      status: healthStatus(row.attempts, row.success_rate),
    })),
  };
}
