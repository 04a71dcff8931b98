import { and, count, eq, gte, isNull, sql } from "drizzle-orm";
import { apiTokens, oauthGrants, traces } from "@/lib/db/schema";
import { microsToUsd } from "@/lib/pipeline/budgets/units";
import type { TenantContext } from "@/lib/pipeline/context";
import { managedGrants } from "@/lib/services/oauth/grant-managers";
import { managedTokens } from "@/lib/services/tokens/token-managers";

/** What one connection's tool calls this month came to. */
export interface Spend {
  usd: number;
  /** Tool calls traced, cache hits and failed calls included (they cost what they were charged: often 0). */
  calls: number;
}

export interface ConnectionSpend {
  /** The start of the UTC month counted, ISO 8601. */
  since: string;
  /** By token id: the tokens people created (connected apps' access tokens count towards their app). */
  tokens: Record<string, Spend>;
  /** By connected app (grant id). */
  apps: Record<string, Spend>;
}

const spendColumns = {
  calls: count(),
  micros: sql<number>`coalesce(sum(${traces.costMicros}), 0)`.mapWith(Number),
};

const byId = (rows: ReadonlyArray<{ id: string | null; calls: number; micros: number }>) =>
  Object.fromEntries(
    rows.flatMap(({ id, calls, micros }) => (id === null ? [] : [[id, { usd: microsToUsd(micros), calls }]])),
  );

/**
 * This UTC month's spend and tool calls of each connection the caller manages, from the traces (a call's
 * cost is what its providers and model calls were charged): every token and connected app of the workspace
 * for admins, a member's own tokens and the apps they approved (token-managers.ts), never another
 * workspace's. A connected app is counted by the grant its calls were traced with, so the calls of its
 * deleted access tokens still count. Connections without calls this month are absent.
 */
export async function connectionSpend({ ctx }: { ctx: TenantContext }): Promise<ConnectionSpend> {
  const ownTokens = managedTokens(ctx); // refuses callers who manage no tokens
  const ownApps = managedGrants(ctx);
  const now = ctx.now();
  const since = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  const thisMonth = and(eq(traces.tenantId, ctx.tenantId), gte(traces.createdAt, since));
  const { tokens, apps } = await ctx.db.withTenant(ctx.tenantId, async (tx) => ({
    tokens: await tx
      .select({ id: traces.tokenId, ...spendColumns })
      .from(traces)
      .innerJoin(apiTokens, eq(apiTokens.id, traces.tokenId))
      .where(and(thisMonth, eq(apiTokens.tenantId, ctx.tenantId), isNull(apiTokens.grantId), ownTokens))
      .groupBy(traces.tokenId),
    apps: await tx
      .select({ id: traces.grantId, ...spendColumns })
      .from(traces)
      .innerJoin(oauthGrants, eq(oauthGrants.id, traces.grantId))
      .where(and(thisMonth, eq(oauthGrants.tenantId, ctx.tenantId), ownApps))
      .groupBy(traces.grantId),
  }));
  return { since: since.toISOString(), tokens: byId(tokens), apps: byId(apps) };
}
