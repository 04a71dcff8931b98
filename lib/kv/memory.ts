/**
 * In-memory KV, the zero-configuration default: one process only, gone on restart. Follows Redis
 * semantics (types, TTL rounding, error messages) so behaviour does not change when a real store is
 * configured. Expired keys vanish on access and in a periodic sweep; live keys are held within a byte
 * budget, least recently used evicted first (Redis's `maxmemory` with `allkeys-lru`), so a stream of
 * distinct cached results cannot grow the process without bound. Evictions are counted in metrics.
 * Platform layer: imports only lib/kv, lib/config and lib/observability.
 */
import { DEFAULT_MEMORY_KV_MB } from "@/lib/config";
import type { KvCommand, KvOutcome, KvReply } from "@/lib/kv/commands";
import { kvFromDriver } from "@/lib/kv/driver";
import type { Kv } from "@/lib/kv/types";
import { metrics } from "@/lib/observability/metrics";

type Entry =
  | { type: "string"; value: string; expiresAt: number | null }
  | { type: "zset"; members: Map<string, number>; expiresAt: number | null };

const WRONG_TYPE = "WRONGTYPE Operation against a key holding the wrong kind of value";
const NOT_AN_INTEGER = "ERR value is not an integer or out of range";
const OVERFLOW = "ERR increment or decrement would overflow";
/** Redis's integer syntax: no sign on zero, no leading zeros, no whitespace. */
const INTEGER_PATTERN = /^(0|-?[1-9][0-9]*)$/;
const SWEEP_INTERVAL_MS = 30_000;
/** What an entry costs beyond its characters: the Map slot, the entry object, string headers. */
const ENTRY_OVERHEAD = 96;
const MEMBER_OVERHEAD = 48;
export interface MemoryStoreOptions {
  /** Budget for keys and values, counted as characters plus a fixed overhead per entry and member. */
  maxBytes?: number;
  now?: () => number;
  /** Told of each live key evicted to stay within the budget. */
  onEvict?: (key: string) => void;
}

export class MemoryStore {
  /** In recency order: a Map iterates in insertion order and every use re-inserts the key. */
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  private readonly maxBytes: number;
  private readonly now: () => number;
  private readonly onEvict: (key: string) => void;

  constructor({
    maxBytes = Number.POSITIVE_INFINITY,
    now = Date.now,
    onEvict = () => {},
  }: MemoryStoreOptions = {}) {
    this.maxBytes = maxBytes;
    this.now = now;
    this.onEvict = onEvict;
  }

  /** Keys held, including expired ones the sweep has not reached yet. */
  get size(): number {
    return this.entries.size;
  }

  /** The budget's measure of what is held. */
  get usedBytes(): number {
    return this.bytes;
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
      if (isExpired(entry, now)) this.remove(key);
    }
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }

  private set(key: string, value: string, ttlSeconds: number | undefined, onlyIfAbsent: boolean): boolean {
    if (onlyIfAbsent && this.liveEntry(key)) return false;
    const expiresAt = ttlSeconds === undefined ? null : this.now() + ttlSeconds * 1000;
    this.put(key, { type: "string", value, expiresAt });
    return true;
  }

  private incr(key: string, by: number): number {
    const entry = this.stringEntry(key);
    const current = entry ? parseInteger(entry.value) : 0;
    const next = current + by;
    if (!Number.isSafeInteger(next)) throw new Error(OVERFLOW);
    // INCR keeps an existing expiry.
    this.put(key, { type: "string", value: String(next), expiresAt: entry?.expiresAt ?? null });
    return next;
  }

  private del(keys: readonly string[]): number {
    let removed = 0;
    // A repeated key counts once: the second lookup finds it gone, as in Redis.
    for (const key of keys) {
      if (this.liveEntry(key) && this.remove(key)) removed++;
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
    if (existing) {
      if (added) this.bytes += member.length + MEMBER_OVERHEAD;
      this.evictBeyondBudget(key);
    } else {
      this.put(key, entry);
    }
    return added;
  }

  private zremrangebyscore(key: string, min: number, max: number): number {
    const entry = this.zsetEntry(key);
    if (!entry) return 0;
    let removed = 0;
    for (const [member, score] of entry.members) {
      if (score >= min && score <= max && entry.members.delete(member)) {
        removed++;
        this.bytes -= member.length + MEMBER_OVERHEAD;
      }
    }
    // Redis deletes a sorted set once it is empty.
    if (entry.members.size === 0) this.remove(key);
    return removed;
  }

  /** The entry unless it has expired, in which case it is removed (lazy expiry); a use makes it the newest. */
  private liveEntry(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (isExpired(entry, this.now())) {
      this.remove(key);
      return undefined;
    }
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry;
  }

  /** Stores `entry` as the newest key, then evicts the least recently used others beyond the budget. */
  private put(key: string, entry: Entry): void {
    this.remove(key);
    this.entries.set(key, entry);
    this.bytes += entrySize(key, entry);
    this.evictBeyondBudget(key);
  }

  private remove(key: string): boolean {
    const entry = this.entries.get(key);
    if (entry === undefined) return false;
    this.entries.delete(key);
    this.bytes -= entrySize(key, entry);
    return true;
  }

  /**
   * Oldest first, never the key just written unless it alone exceeds the budget: then it goes (Redis
   * would refuse the write; a cache that keeps nothing gives the same answer without an error).
   */
  private evictBeyondBudget(justWritten: string): void {
    if (this.bytes <= this.maxBytes) return;
    const written = this.entries.get(justWritten);
    if (written !== undefined && entrySize(justWritten, written) > this.maxBytes) {
      this.remove(justWritten);
      this.onEvict(justWritten);
      return;
    }
    const now = this.now();
    for (const [key, entry] of this.entries) {
      if (this.bytes <= this.maxBytes) return;
      if (key === justWritten) continue;
      this.remove(key);
      if (!isExpired(entry, now)) this.onEvict(key);
    }
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

function entrySize(key: string, entry: Entry): number {
  if (entry.type === "string") return ENTRY_OVERHEAD + key.length + entry.value.length;
  let size = ENTRY_OVERHEAD + key.length;
  for (const member of entry.members.keys()) size += member.length + MEMBER_OVERHEAD;
  return size;
}

function isExpired(entry: Entry, now: number): boolean {
  return entry.expiresAt !== null && entry.expiresAt <= now;
}

function parseInteger(value: string): number {
  const parsed = Number(value);
  if (!INTEGER_PATTERN.test(value) || !Number.isSafeInteger(parsed)) throw new Error(NOT_AN_INTEGER);
  return parsed;
}

export function createMemoryKv({
  maxBytes = DEFAULT_MEMORY_KV_MB * 1024 * 1024,
}: {
  maxBytes?: number;
} = {}): Kv {
  const evictions = metrics().kvEvictions;
  const store = new MemoryStore({ maxBytes, onEvict: () => evictions.inc() });
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
