/**
 * The calling tenant's own rows a tool call reads and writes: its provider keys, web_search settings and
 * lenses, and a key a provider refused marked invalid. A capability of the context, so that the operator's
 * context (operator-context.ts), which has no tenant, runs the same verbs: reads find nothing, writes
 * change nothing.
 */
import type { Tx } from "@/lib/db";
import type { TenantContext } from "./context";

export interface TenantRecords {
  read<T>(ctx: TenantContext, query: (tx: Tx) => Promise<T[]>): Promise<T[]>;
  write(ctx: TenantContext, change: (tx: Tx) => Promise<unknown>): Promise<void>;
}

/** A tenant's rows in the database, in its row-level scope. */
export const databaseRecords: TenantRecords = {
  read: (ctx, query) => ctx.db.withTenant(ctx.tenantId, query),
  async write(ctx, change) {
    await ctx.db.withTenant(ctx.tenantId, change);
  },
};
