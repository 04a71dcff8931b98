/**
 * KV commands as data: one description of each command, built and validated once, then executed by
 * whichever adapter is configured (directly or queued in a pipeline).
 * Platform layer: imports only lib/kv types.
 */
import type { Kv, KvCommandName, KvSetOptions } from "@/lib/kv/types";

export type KvCommand =
  | { op: "get"; key: string }
  | { op: "set"; key: string; value: string; ttlSeconds: number | undefined; onlyIfAbsent: boolean }
  | { op: "incr"; key: string; by: number }
  | { op: "expire"; key: string; ttlSeconds: number }
  | { op: "ttl"; key: string }
  | { op: "del"; keys: string[] }
  | { op: "zadd"; key: string; score: number; member: string }
  | { op: "zremrangebyscore"; key: string; min: number; max: number }
  | { op: "zcard"; key: string };

export type KvCommandOf<C extends KvCommandName> = Extract<KvCommand, { op: C }>;
export type KvReplies = { [C in KvCommandName]: Awaited<ReturnType<Kv[C]>> };
export type KvReply = KvReplies[KvCommandName];
export type KvOutcome = { ok: true; reply: KvReply } | { ok: false; error: Error };

/** A command the store rejected (wrong type, non-integer INCR, …); other commands in its batch still ran. */
export class KvCommandError extends Error {
  constructor(
    readonly op: KvCommandName,
    cause: Error,
  ) {
    super(`kv ${op}: ${cause.message}`, { cause });
    this.name = "KvCommandError";
  }
}

/**
 * The store did not serve a batch (connection refused or lost, a timeout, a reply it could not parse):
 * unlike KvCommandError, no command of it was answered, so callers can tell "the store is away" apart.
 */
export class KvUnavailableError extends Error {
  constructor(store: string, cause: unknown) {
    super(`kv ${store}: ${cause instanceof Error ? cause.message : "the store did not answer"}`, { cause });
    this.name = "KvUnavailableError";
  }
}

/** Builders that check arguments up front, so every adapter rejects the same inputs the same way. */
export const kvCommand = {
  get: (key: string): KvCommandOf<"get"> => ({ op: "get", key }),
  set: (key: string, value: string, opts: KvSetOptions = {}): KvCommandOf<"set"> => {
    if (opts.ttlSeconds !== undefined) assertTtlSeconds(opts.ttlSeconds);
    return { op: "set", key, value, ttlSeconds: opts.ttlSeconds, onlyIfAbsent: opts.onlyIfAbsent ?? false };
  },
  incr: (key: string, by = 1): KvCommandOf<"incr"> => {
    if (!Number.isSafeInteger(by)) {
      throw new RangeError(`kv incr: increment must be a whole number, got ${by}`);
    }
    return { op: "incr", key, by };
  },
  expire: (key: string, ttlSeconds: number): KvCommandOf<"expire"> => {
    assertTtlSeconds(ttlSeconds);
    return { op: "expire", key, ttlSeconds };
  },
  ttl: (key: string): KvCommandOf<"ttl"> => ({ op: "ttl", key }),
  del: (...keys: string[]): KvCommandOf<"del"> => {
    if (keys.length === 0) throw new RangeError("kv del: at least one key is required");
    return { op: "del", keys };
  },
  zadd: (key: string, score: number, member: string): KvCommandOf<"zadd"> => {
    if (!Number.isFinite(score)) throw new RangeError(`kv zadd: score must be finite, got ${score}`);
    return { op: "zadd", key, score, member };
  },
  zremrangebyscore: (key: string, min: number, max: number): KvCommandOf<"zremrangebyscore"> => {
    if (Number.isNaN(min) || Number.isNaN(max)) {
      throw new RangeError("kv zremrangebyscore: bounds must be numbers");
    }
    return { op: "zremrangebyscore", key, min, max };
  },
  zcard: (key: string): KvCommandOf<"zcard"> => ({ op: "zcard", key }),
} satisfies { [C in KvCommandName]: (...args: Parameters<Kv[C]>) => KvCommandOf<C> };

function assertTtlSeconds(ttlSeconds: number): void {
  // Redis rejects 0/negative in SET EX and deletes the key on EXPIRE 0; the Upstash client even drops a
  // 0 argument. A positive whole number is the one form every backend treats alike.
  if (!Number.isSafeInteger(ttlSeconds) || ttlSeconds <= 0) {
    throw new RangeError(`kv: ttlSeconds must be a positive whole number, got ${ttlSeconds}`);
  }
}

/** Score bound in Redis wire form: infinities become the `-inf` / `+inf` tokens Redis understands. */
export function scoreBound(score: number): number | "-inf" | "+inf" {
  if (score === Number.POSITIVE_INFINITY) return "+inf";
  if (score === Number.NEGATIVE_INFINITY) return "-inf";
  return score;
}

/** Converts a raw Redis reply (as ioredis or the Upstash client hand it over) into the `Kv` result type. */
export function toKvReply(command: KvCommand, raw: unknown): KvReply {
  switch (command.op) {
    case "get":
      if (raw === null || typeof raw === "string") return raw;
      break;
    case "set":
      // SET answers OK when written and nil when NX found the key.
      if (raw === "OK" || raw === null) return raw === "OK";
      break;
    case "expire":
      if (raw === 0 || raw === 1) return raw === 1;
      break;
    default:
      if (typeof raw === "number") return raw;
  }
  throw new Error(`kv ${command.op}: unexpected reply ${JSON.stringify(raw)}`);
}
