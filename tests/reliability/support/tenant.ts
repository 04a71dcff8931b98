/**
 * A tenant with one API token, created through the same verbs as the operator CLI, in the database a
 * running server uses; optionally with budgets and a per-token rate limit.
 */

import { type Platform, SCOPES, type Scope, type TenantContext } from "@/lib/pipeline/context";
import { setBudget } from "@/lib/services/budgets/set-budget";
import { createTenant } from "@/lib/services/tenants/create-tenant";
import { updateTenant } from "@/lib/services/tenants/update-tenant";
import { createToken } from "@/lib/services/tokens/create-token";
import { systemCtx, tenantCtx } from "@/tests/support/platform";

/**
 * A monthly spend cap across all providers no load test or benchmark reaches, in place of a new workspace's
 * default $10 (lib/services/budgets/default-budget.ts): they measure calls, not a spent cap's refusals.
 */
export const UNREACHED_SPEND_CAP = {
  provider: "*",
  metric: "usd",
  period: "month",
  limit: 1_000_000,
} as const;

export interface SeedOptions {
  name: string;
  scopes?: Scope[];
  budgets?: Array<Parameters<typeof setBudget>[0]["input"]>;
  rateLimitRpm?: number;
}

export interface SeededTenant {
  tenantId: string;
  token: string;
  tokenId: string;
  ctx: TenantContext;
}

export async function seedTenant(platform: Platform, options: SeedOptions): Promise<SeededTenant> {
  const tenant = await createTenant({ ctx: systemCtx(platform), input: { name: options.name } });
  const ctx = tenantCtx(platform, tenant.id);
  if (options.rateLimitRpm !== undefined)
    await updateTenant({ ctx, input: { rateLimitRpm: options.rateLimitRpm } });
  for (const budget of options.budgets ?? []) await setBudget({ ctx, input: budget });
  const created = await createToken({
    ctx,
    input: { name: `${options.name}-token`, scopes: options.scopes ?? [...SCOPES] },
  });
  return { tenantId: tenant.id, token: created.token, tokenId: created.id, ctx };
}
