/**
 * Tool results cached in KV per tenant: key = tenant + tool + a hash of the normalised input (with the
 * provider set and options). Never shared across tenants, since a result may have been bought with
 * that tenant's keys. Partial results are not stored whole (the caller decides); a tool that fans out may
 * keep each provider's answer on its own (provider-answers.ts), so that one failing provider does not
 * void what the others returned.
 */
import { createHash } from "node:crypto";
import type { Kv } from "@/lib/kv";
import type { Env } from "@/lib/pipeline/capabilities";

const DEFAULT_CACHE_TTL_SECONDS = 36 * 3600;

export function cacheTtlSeconds(env: Env): number {
  const configured = Number(env.SEARCHMUX_CACHE_TTL_SECONDS);
  return Number.isInteger(configured) && configured > 0 ? configured : DEFAULT_CACHE_TTL_SECONDS;
}

/** JSON with object keys sorted at every level, so equal inputs hash equally. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

const KEY_PREFIX = "smx:cache:";

export function resultCacheKey(tenantId: string, tool: string, normalizedInput: unknown): string {
  const digest = createHash("sha256").update(stableJson(normalizedInput)).digest("base64url");
  return `${KEY_PREFIX}${tenantId}:${tool}:${digest}`;
}

export const isResultCacheKey = (key: string): boolean => key.startsWith(KEY_PREFIX);

export async function readCached<T>(kv: Kv, key: string): Promise<T | null> {
  const raw = await kv.get(key).catch(() => null); // a KV outage degrades to a miss
  return raw === null ? null : (JSON.parse(raw) as T);
}

/** Several entries in one KV round trip, in order (a KV outage degrades to misses). */
export async function readCachedMany<T>(kv: Kv, keys: readonly string[]): Promise<Array<T | null>> {
  if (keys.length === 0) return [];
  const pipeline = kv.pipeline();
  for (const key of keys) pipeline.get(key);
  const replies = await pipeline.exec().catch(() => keys.map(() => null));
  return replies.map((reply) => (typeof reply === "string" ? (JSON.parse(reply) as T) : null));
}

export async function writeCached(kv: Kv, key: string, value: unknown, ttlSeconds: number): Promise<void> {
  await kv.set(key, JSON.stringify(value), { ttlSeconds }).catch(() => undefined);
}
