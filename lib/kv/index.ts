/**
 * Entry point of the KV layer: picks the adapter from configuration and keeps one per process.
 * Platform layer: may import drivers (through the adapters) and env; never services or engine.
 */
import { createMemoryKv } from "@/lib/kv/memory";
import { createRedisKv } from "@/lib/kv/redis";
import type { Kv } from "@/lib/kv/types";
import { createUpstashKv } from "@/lib/kv/upstash";

export { KvCommandError } from "@/lib/kv/commands";
export type { Kv, KvName, KvPipeline, KvSetOptions } from "@/lib/kv/types";

export type KvEnv = Readonly<Record<string, string | undefined>>;

/**
 * Upstash when `KV_REST_API_URL` and `KV_REST_API_TOKEN` are set, else Redis when `REDIS_URL` is set,
 * else in-memory. Blank values count as unset; half of the Upstash pair is a configuration error
 * rather than a silent fallback to a store the other instances do not share.
 */
export function createKv(env: KvEnv = process.env): Kv {
  const restUrl = env.KV_REST_API_URL?.trim();
  const restToken = env.KV_REST_API_TOKEN?.trim();
  const redisUrl = env.REDIS_URL?.trim();
  if (restUrl && restToken) return createUpstashKv({ url: restUrl, token: restToken });
  if (restUrl || restToken) {
    throw new Error("KV_REST_API_URL and KV_REST_API_TOKEN must be set together (or neither)");
  }
  if (redisUrl) return createRedisKv(redisUrl);
  return createMemoryKv();
}

// Kept on globalThis so Next.js dev hot reloads reuse the connection instead of opening a new one
// each time this module is re-evaluated.
const holder = globalThis as typeof globalThis & { __searchmuxKv?: Kv };

/** The process-wide store, created from `process.env` on first use. */
export function getKv(): Kv {
  holder.__searchmuxKv ??= createKv();
  return holder.__searchmuxKv;
}
