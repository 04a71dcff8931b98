import { providerKeys } from "@/lib/db/schema";
import type { TenantContext } from "@/lib/pipeline/context";
import { open, storedKeyBinding } from "@/lib/pipeline/keys/key-encryption";
import { providerCatalog } from "./catalog";
import { operatorKey } from "./operator-providers";
import { type StoredEndpoint, storedEndpoint } from "./workspace-model";

interface TenantKey {
  apiKey: string;
  /** What was stored with the key of a provider the workspace configures itself. */
  endpoint?: StoredEndpoint;
}

export interface ResolvedKey extends TenantKey {
  source: "tenant" | "operator";
}

/**
 * A tenant's decrypted keys are kept in process for a few seconds so that calls (cache hits above all)
 * need no database round trip; storing or deleting a key here drops the entry at once, other instances
 * see the change within the TTL. Kept on globalThis so every route bundle shares one cache.
 */
const TENANT_KEYS_TTL_MS = 10_000;
const holder = globalThis as typeof globalThis & {
  searchmuxTenantKeys?: Map<string, { expires: number; keys: Promise<Map<string, TenantKey>> }>;
};
holder.searchmuxTenantKeys ??= new Map();
const tenantKeyCache = holder.searchmuxTenantKeys;

async function loadTenantKeys(ctx: TenantContext): Promise<Map<string, TenantKey>> {
  const rows = await ctx.records.read(ctx, (tx) => tx.select().from(providerKeys));
  const catalog = providerCatalog();
  const keys = new Map<string, TenantKey>();
  for (const row of rows) {
    let apiKey: string;
    try {
      apiKey = open(ctx.keyring, row, storedKeyBinding(row));
    } catch {
      // An undecryptable row (unknown KEK version, tampered ciphertext or binding) counts as no tenant key.
      continue;
    }
    if (!catalog.get(row.provider)?.configuredByWorkspace) {
      keys.set(row.provider, { apiKey });
      continue;
    }
    // Settings that no longer parse count as no key too: nothing is called with half a configuration.
    const endpoint = storedEndpoint(row.settings);
    if (endpoint) keys.set(row.provider, { apiKey, endpoint });
  }
  return keys;
}

function tenantKeys(ctx: TenantContext): Promise<Map<string, TenantKey>> {
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
      resolved.set(id, { ...tenantKey, source: "tenant" });
      continue;
    }
    const fromEnv = operatorKey(catalog.get(id)?.keyEnv ?? [], ctx.env);
    if (fromEnv) resolved.set(id, { apiKey: fromEnv, source: "operator" });
  }
  return resolved;
}
