/**
 * The tests' Redis: REDIS_URL's server (the local one by default) at a database index of its own,
 * SMX_TEST_REDIS_DB (15 unless set), so a test run never reads a developer's keys nor leaves its own
 * among them; and the means to leave nothing behind there. Test files run in parallel on that one
 * database, so each deletes only the keys it knows are its own, never the whole database.
 */
import { Redis } from "ioredis";
import type { Database } from "@/lib/db/client";
import { apiTokens, tenants } from "@/lib/db/schema";
import { createRedisKv } from "@/lib/kv/redis";
import type { Kv } from "@/lib/kv/types";

const DEFAULT_TEST_DB = 15;

export function testRedisUrl(): string {
  const url = new URL(process.env.REDIS_URL?.trim() || "redis://127.0.0.1:6379");
  const index = Number(process.env.SMX_TEST_REDIS_DB?.trim() || DEFAULT_TEST_DB);
  if (!Number.isInteger(index) || index < 0) {
    throw new Error(
      `SMX_TEST_REDIS_DB must be a Redis database index, not "${process.env.SMX_TEST_REDIS_DB}"`,
    );
  }
  url.pathname = `/${index}`;
  return url.toString();
}

/** A Kv on the tests' Redis whose close() first deletes every key it was given (written or read). */
export function testRedisKv(): Kv {
  const kv = createRedisKv(testRedisUrl());
  const touched = new Set<string>();
  const close = async () => {
    if (touched.size > 0) await kv.del(...touched);
    await kv.close();
  };
  /** `target` with each keyed command noting its key; a pipeline's chained calls return the proxy. */
  function noting<T extends object>(target: T): T {
    const proxy: T = new Proxy(target, {
      get(object, command, receiver) {
        const value = Reflect.get(object, command, receiver);
        if (typeof value !== "function") return value;
        if (command === "pipeline") return () => noting(kv.pipeline());
        if (command === "close") return close;
        return (...args: unknown[]) => {
          if (command !== "del" && typeof args[0] === "string") touched.add(args[0]);
          const result = Reflect.apply(value, object, args);
          return result === object ? proxy : result;
        };
      },
    });
    return proxy;
  }
  return noting(kv);
}

/**
 * Deletes from the tests' Redis what app processes (next start, instance workers) wrote for the
 * workspaces of `db`, a test's own database: every `smx:` key naming one of its tenants, tokens or
 * token hashes, or one of `extra`. Call it before dropping the database.
 */
export async function deleteAppKeys(db: Database, extra: readonly string[] = []): Promise<void> {
  const names = await db.withSystem(async (tx) => [
    ...(await tx.select({ id: tenants.id }).from(tenants)).map((row) => row.id),
    ...(await tx.select({ id: apiTokens.id, hash: apiTokens.tokenHash }).from(apiTokens)).flatMap((row) => [
      row.id,
      row.hash,
    ]),
    ...extra,
  ]);
  if (names.length === 0) return;
  const redis = new Redis(testRedisUrl(), { lazyConnect: true });
  try {
    const doomed: string[] = [];
    for await (const keys of redis.scanStream({ match: "smx:*", count: 1_000 })) {
      doomed.push(...(keys as string[]).filter((key) => names.some((name) => key.includes(name))));
    }
    if (doomed.length > 0) await redis.del(...doomed);
  } finally {
    redis.disconnect();
  }
}
