/**
 * In-memory KV, the zero-configuration default: one process only, gone on restart. Follows Redis
 * semantics (types, TTL rounding, error messages) so behaviour does not change when a real store is
 * configured. Expired keys vanish on access and in a periodic sweep, so memory stays bounded.
 * Platform layer: imports only lib/kv.
 */
import type { KvCommand, KvOutcome, KvReply } from "@/lib/kv/commands";
import { kvFromDriver } from "@/lib/kv/driver";
import type { Kv } from "@/lib/kv/types";

type Entry =
  | { type: "string"; value: string; expiresAt: number | null }
  | { type: "zset"; members: Map<string, number>; expiresAt: number | null };

const WRONG_TYPE = "WRONGTYPE Operation against a key holding the wrong kind of value";
const NOT_AN_INTEGER = "ERR value is not an integer or out of range";
const OVERFLOW = "ERR increment or decrement would overflow";
/** Redis's integer syntax: no sign on zero, no leading zeros, no whitespace. */
const INTEGER_PATTERN = /^(0|-?[1-9][0-9]*)$/;
const SWEEP_INTERVAL_MS = 30_000;

export class MemoryStore {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Keys held, including expired ones the sweep has not reached yet. */
  get size(): number {
    return this.entries.size;
  }

  /** Runs one command; throws Redis's error message when Redis would answer with an error. */
  execute(command: KvCommand): KvReply {
    switch (command.op) {
      case "get":
        return this.stringEntry(command.key)?.value ?? null;
      case "set":
        return this.set(command.key, command.value, command.ttlSeconds, command.onlyIfAbsent);
      case "incr":
        return this.incr(command.key, command.by);
      case "expire": {
        const entry = this.liveEntry(command.key);
        if (entry) entry.expiresAt = this.now() + command.ttlSeconds * 1000;
        return entry !== undefined;
      }
      case "ttl":
        return this.ttl(command.key);
      case "del":
        return this.del(command.keys);
      case "zadd":
        return this.zadd(command.key, command.score, command.member);
      case "zremrangebyscore":
        return this.zremrangebyscore(command.key, command.min, command.max);
      case "zcard":
        return this.zsetEntry(command.key)?.members.size ?? 0;
    }
  }

  /** Drops every expired key; called periodically so keys nobody reads again do not pile up. */
  sweep(): void {
    const now = this.now();
    for (const [key, entry] of this.entries) {
      if (isExpired(entry, now)) this.entries.delete(key);
    }
  }

  clear(): void {
    this.entries.clear();
  }

  private set(key: string, value: string, ttlSeconds: number | undefined, onlyIfAbsent: boolean): boolean {
    if (onlyIfAbsent && this.liveEntry(key)) return false;
    const expiresAt = ttlSeconds === undefined ? null : this.now() + ttlSeconds * 1000;
    this.entries.set(key, { type: "string", value, expiresAt });
    return true;
  }

  private incr(key: string, by: number): number {
    const entry = this.stringEntry(key);
    const current = entry ? parseInteger(entry.value) : 0;
    const next = current + by;
    if (!Number.isSafeInteger(next)) throw new Error(OVERFLOW);
    // INCR keeps an existing expiry.
    this.entries.set(key, { type: "string", value: String(next), expiresAt: entry?.expiresAt ?? null });
    return next;
  }

  private del(keys: readonly string[]): number {
    let removed = 0;
    // A repeated key counts once: the second lookup finds it gone, as in Redis.
    for (const key of keys) {
      if (this.liveEntry(key) && this.entries.delete(key)) removed++;
    }
    return removed;
  }

  private ttl(key: string): number {
    const entry = this.liveEntry(key);
    if (!entry) return -2;
    if (entry.expiresAt === null) return -1;
    // Redis rounds the remaining milliseconds to the nearest second.
    return Math.floor((entry.expiresAt - this.now() + 500) / 1000);
  }

  private zadd(key: string, score: number, member: string): number {
    const existing = this.zsetEntry(key);
    const entry = existing ?? { type: "zset" as const, members: new Map<string, number>(), expiresAt: null };
    const added = entry.members.has(member) ? 0 : 1;
    entry.members.set(member, score);
    this.entries.set(key, entry);
    return added;
  }

  private zremrangebyscore(key: string, min: number, max: number): number {
    const entry = this.zsetEntry(key);
    if (!entry) return 0;
    let removed = 0;
    for (const [member, score] of entry.members) {
      if (score >= min && score <= max && entry.members.delete(member)) removed++;
    }
    // Redis deletes a sorted set once it is empty.
    if (entry.members.size === 0) this.entries.delete(key);
    return removed;
  }

  /** The entry unless it has expired, in which case it is removed (lazy expiry). */
  private liveEntry(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (entry && isExpired(entry, this.now())) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  private stringEntry(key: string): Extract<Entry, { type: "string" }> | undefined {
    const entry = this.liveEntry(key);
    if (entry && entry.type !== "string") throw new Error(WRONG_TYPE);
    return entry;
  }

  private zsetEntry(key: string): Extract<Entry, { type: "zset" }> | undefined {
    const entry = this.liveEntry(key);
    if (entry && entry.type !== "zset") throw new Error(WRONG_TYPE);
    return entry;
  }
}

function isExpired(entry: Entry, now: number): boolean {
  return entry.expiresAt !== null && entry.expiresAt <= now;
}

function parseInteger(value: string): number {
  const parsed = Number(value);
  if (!INTEGER_PATTERN.test(value) || !Number.isSafeInteger(parsed)) throw new Error(NOT_AN_INTEGER);
  return parsed;
}

export function createMemoryKv(): Kv {
  const store = new MemoryStore();
  const sweeper = setInterval(() => store.sweep(), SWEEP_INTERVAL_MS);
  // The sweep must never keep a CLI or test process alive.
  sweeper.unref();
  return kvFromDriver({
    name: "memory",
    execute: async (commands) => commands.map((command) => runCaptured(store, command)),
    ping: async () => {},
    close: async () => {
      clearInterval(sweeper);
      store.clear();
    },
  });
}

function runCaptured(store: MemoryStore, command: KvCommand): KvOutcome {
  try {
    return { ok: true, reply: store.execute(command) };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error : new Error(String(error)) };
  }
}
