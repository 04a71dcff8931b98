/**
 * Entry point of the KV layer: picks the adapter from configuration and keeps one per process.
 * Platform layer: may import drivers (through the adapters) and env; never services or engine.
 */
import { kvStore } from "@/lib/config";
import { createMemoryKv } from "@/lib/kv/memory";
import { createRedisKv } from "@/lib/kv/redis";
import type { Kv } from "@/lib/kv/types";
import { createUpstashKv } from "@/lib/kv/upstash";

export { KvCommandError, KvUnavailableError } from "@/lib/kv/commands";
export type { Kv, KvPipeline } from "@/lib/kv/types";

export type KvEnv = Readonly<Record<string, string | undefined>>;

/** The store `kvStore(env)` picks (lib/config.ts: Upstash, Redis or in-memory; half an Upstash pair throws). */
export function createKv(env: KvEnv = process.env): Kv {
  const store = kvStore(env);
  if (store.kind === "upstash") return createUpstashKv(store);
  if (store.kind === "redis") return createRedisKv(store.url);
  return createMemoryKv({ maxBytes: store.maxBytes });
}

// Kept on globalThis so Next.js dev hot reloads reuse the connection instead of opening a new one
// each time this module is re-evaluated.
const holder = globalThis as typeof globalThis & { __searchmuxKv?: Kv };

/** The process-wide store, created from `process.env` on first use. */
export function getKv(): Kv {
  holder.__searchmuxKv ??= createKv();
  return holder.__searchmuxKv;
}
