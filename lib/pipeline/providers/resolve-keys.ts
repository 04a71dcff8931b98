import { providerKeys } from "@/lib/db/schema";
import type { TenantContext } from "@/lib/pipeline/context";
import { open } from "@/lib/pipeline/keys/key-encryption";
import { providerCatalog } from "./catalog";
import { operatorKey } from "./operator-providers";

export interface ResolvedKey {
  apiKey: string;
  source: "tenant" | "operator";
}

/**
 * A tenant's decrypted keys are kept in process for a few seconds so that calls (cache hits above all)
 * need no database round trip; storing or deleting a key here drops the entry at once, other instances
 * see the change within the TTL. Kept on globalThis so every route bundle shares one cache.
 */
const TENANT_KEYS_TTL_MS = 10_000;
const holder = globalThis as typeof globalThis & {
  searchmuxTenantKeys?: Map<string, { expires: number; keys: Promise<Map<string, string>> }>;
};
holder.searchmuxTenantKeys ??= new Map();
const tenantKeyCache = holder.searchmuxTenantKeys;

async function loadTenantKeys(ctx: TenantContext): Promise<Map<string, string>> {
  const rows = await ctx.records.read(ctx, (tx) => tx.select().from(providerKeys));
  const keys = new Map<string, string>();
  for (const row of rows) {
    try {
      keys.set(
        row.provider,
        open(ctx.keyring, row, { tenantId: row.tenantId, provider: row.provider, rowId: row.id }),
      );
    } catch {
      // An undecryptable row (unknown KEK version, tampered ciphertext) counts as no tenant key.
    }
  }
  return keys;
}

function tenantKeys(ctx: TenantContext): Promise<Map<string, string>> {
  const now = Date.now();
  const cached = tenantKeyCache.get(ctx.tenantId);
  if (cached && cached.expires > now) return cached.keys;
  const keys = loadTenantKeys(ctx);
  tenantKeyCache.set(ctx.tenantId, { expires: now + TENANT_KEYS_TTL_MS, keys });
  keys.catch(() => tenantKeyCache.delete(ctx.tenantId));
  return keys;
}

/** Called when a tenant's keys change, so this instance uses the new key at once. */
export function forgetTenantKeys(tenantId: string): void {
  tenantKeyCache.delete(tenantId);
}

/**
 * Keys for a call, per provider: the tenant's own key, else the operator's from the environment (all the
 * operator's context has). Providers with neither are absent from the result. Decryption happens only here, on the call path.
 */
export async function resolveProviderKeys(
  ctx: TenantContext,
  providerIds: readonly string[],
): Promise<Map<string, ResolvedKey>> {
  const resolved = new Map<string, ResolvedKey>();
  if (providerIds.length === 0) return resolved;
  const own = await tenantKeys(ctx);
  const catalog = providerCatalog();
  for (const id of providerIds) {
    const tenantKey = own.get(id);
    if (tenantKey) {
      resolved.set(id, { apiKey: tenantKey, source: "tenant" });
      continue;
    }
    const fromEnv = operatorKey(catalog.get(id)?.keyEnv ?? [], ctx.env);
    if (fromEnv) resolved.set(id, { apiKey: fromEnv, source: "operator" });
  }
  return resolved;
}
