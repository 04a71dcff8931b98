/**
 * A tenant's web_search defaults: grounded snippets on or off, and the mode of a call that names neither
 * `mode` nor `providers`. Read on every search, so they are
 * kept in process for a few seconds like decrypted keys: a cache hit stays free of database round
 * trips. updateTenant drops the entry at once; other instances see a change within the TTL. The operator
 * has no settings row: it gets the defaults (no grounding, fanout).
 */
import { eq } from "drizzle-orm";
import { tenants } from "@/lib/db/schema";
import type { TenantContext } from "@/lib/pipeline/context";

export interface SearchSettings {
  groundedSnippets: boolean;
  defaultSearchMode: "fanout" | "auto" | "budget";
}

const SETTINGS_TTL_MS = 10_000;
const holder = globalThis as typeof globalThis & {
  searchmuxSearchSettings?: Map<string, { expires: number; settings: Promise<SearchSettings> }>;
};
holder.searchmuxSearchSettings ??= new Map();
const cache = holder.searchmuxSearchSettings;

async function loadSettings(ctx: TenantContext): Promise<SearchSettings> {
  const [row] = await ctx.records.read(ctx, (tx) =>
    tx
      .select({ groundedSnippets: tenants.groundedSnippets, defaultSearchMode: tenants.defaultSearchMode })
      .from(tenants)
      .where(eq(tenants.id, ctx.tenantId)),
  );
  return {
    groundedSnippets: row?.groundedSnippets ?? false,
    defaultSearchMode: row?.defaultSearchMode ?? "fanout",
  };
}

export function tenantSearchSettings(ctx: TenantContext): Promise<SearchSettings> {
  const now = Date.now();
  const cached = cache.get(ctx.tenantId);
  if (cached && cached.expires > now) return cached.settings;
  const settings = loadSettings(ctx);
  cache.set(ctx.tenantId, { expires: now + SETTINGS_TTL_MS, settings });
  settings.catch(() => cache.delete(ctx.tenantId));
  return settings;
}

/** Called when a tenant's settings change, so this instance uses them at once. */
export function forgetSearchSettings(tenantId: string): void {
  cache.delete(tenantId);
}
