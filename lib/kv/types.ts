/**
 * The `Kv` contract shared by every KV adapter (memory, Redis over TCP, Upstash REST).
 * Platform layer: types only; imports nothing.
 *
 * Values are strings — callers JSON-encode their own data. Semantics follow Redis, so code written
 * against the in-memory adapter behaves the same against a real store.
 */

export type KvName = "memory" | "redis" | "upstash";

export interface KvSetOptions {
  /** Positive whole number of seconds; omitted means no expiry (and clears an existing one, as SET does). */
  ttlSeconds?: number;
  /** Write only when the key does not exist yet (SET NX). */
  onlyIfAbsent?: boolean;
}

export interface Kv {
  readonly name: KvName;
  get(key: string): Promise<string | null>;
  /** Resolves false only when `onlyIfAbsent` is set and the key already existed. */
  set(key: string, value: string, opts?: KvSetOptions): Promise<boolean>;
  /** INCRBY with a whole number: a missing key counts from 0; a non-integer value is an error. */
  incr(key: string, by?: number): Promise<number>;
  /** Resolves false when the key does not exist. `ttlSeconds` must be a positive whole number. */
  expire(key: string, ttlSeconds: number): Promise<boolean>;
  /** Remaining seconds; -2 when the key is missing, -1 when it has no expiry. */
  ttl(key: string): Promise<number>;
  /** Number of keys that existed and were removed. At least one key is required. */
  del(...keys: string[]): Promise<number>;
  /** Number of members newly added (0 when only the score of an existing member changed). Finite scores. */
  zadd(key: string, score: number, member: string): Promise<number>;
  /** Removes members with min <= score <= max (±Infinity allowed); resolves to the number removed. */
  zremrangebyscore(key: string, min: number, max: number): Promise<number>;
  /** Number of members; 0 when the key is missing. */
  zcard(key: string): Promise<number>;
  pipeline(): KvPipeline;
  /** Resolves when the backend answers; throws when it is unreachable or rejects our credentials. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export type KvCommandName =
  | "get"
  | "set"
  | "incr"
  | "expire"
  | "ttl"
  | "del"
  | "zadd"
  | "zremrangebyscore"
  | "zcard";

/**
 * The same commands as `Kv`, queued. `exec()` sends them in one round trip where the backend allows
 * it and resolves to their results in order, typed exactly as the direct commands. Every command runs
 * even when one fails (as in a Redis pipeline); `exec()` then rejects with the first failure.
 */
export type KvPipeline = { [C in KvCommandName]: (...args: Parameters<Kv[C]>) => KvPipeline } & {
  exec(): Promise<unknown[]>;
};
