import { describe, expect, it } from "vitest";
import { memoryKvBytes } from "@/lib/config";
import { kvCommand } from "@/lib/kv/commands";
import { createMemoryKv, MemoryStore } from "@/lib/kv/memory";
import { describeKvContract } from "./contract";

describeKvContract("memory", createMemoryKv);

describe("MemoryStore sweep", () => {
  it("drops expired keys nobody reads again and keeps the rest", () => {
    let now = 0;
    const store = new MemoryStore({ now: () => now });
    store.execute(kvCommand.set("short", "v", { ttlSeconds: 1 }));
    store.execute(kvCommand.set("long", "v", { ttlSeconds: 60 }));
    store.execute(kvCommand.set("forever", "v"));

    now = 1_000;
    expect(store.size).toBe(3);
    store.sweep();
    expect(store.size).toBe(2);
    expect(store.execute(kvCommand.get("long"))).toBe("v");
  });

  it("rounds the remaining TTL to the nearest second, as Redis does", () => {
    let now = 0;
    const store = new MemoryStore({ now: () => now });
    store.execute(kvCommand.set("k", "v", { ttlSeconds: 10 }));
    now = 8_400;
    expect(store.execute(kvCommand.ttl("k"))).toBe(2);
    now = 8_600;
    expect(store.execute(kvCommand.ttl("k"))).toBe(1);
    now = 9_600;
    expect(store.execute(kvCommand.ttl("k"))).toBe(0);
    now = 10_000;
    expect(store.execute(kvCommand.ttl("k"))).toBe(-2);
  });
});

describe("MemoryStore byte budget", () => {
  const value = (n: number) => "x".repeat(n);
  const budgetFor = (keys: number, size: number) => keys * (size + 200);

  it("evicts the least recently used keys once the budget is exceeded, and reports each", () => {
    const evicted: string[] = [];
    const store = new MemoryStore({ maxBytes: budgetFor(3, 1_000), onEvict: (key) => evicted.push(key) });
    for (const key of ["a", "b", "c"]) store.execute(kvCommand.set(key, value(1_000)));
    // Reading "a" makes it the newest; "b" is now the oldest.
    expect(store.execute(kvCommand.get("a"))).toBe(value(1_000));
    store.execute(kvCommand.set("d", value(1_000)));

    expect(evicted).toEqual(["b"]);
    expect(store.execute(kvCommand.get("b"))).toBeNull();
    for (const key of ["a", "c", "d"]) expect(store.execute(kvCommand.get(key))).toBe(value(1_000));
    expect(store.usedBytes).toBeLessThanOrEqual(budgetFor(3, 1_000));
  });

  it("holds a stream of distinct large values within the budget (the soak in miniature)", () => {
    const maxBytes = 1024 * 1024;
    let evictions = 0;
    const store = new MemoryStore({ maxBytes, onEvict: () => evictions++ });
    for (let i = 0; i < 5_000; i++)
      store.execute(kvCommand.set(`smx:cache:${i}`, value(10_000), { ttlSeconds: 3600 }));
    expect(store.usedBytes).toBeLessThanOrEqual(maxBytes);
    expect(store.size).toBeLessThan(110);
    expect(evictions).toBe(5_000 - store.size);
    expect(store.execute(kvCommand.get("smx:cache:4999"))).toBe(value(10_000));
  });

  it("accounts for replaced values, counters, sorted-set members and deletions", () => {
    const store = new MemoryStore({ maxBytes: 1_000_000 });
    store.execute(kvCommand.set("k", value(500)));
    const afterSet = store.usedBytes;
    store.execute(kvCommand.set("k", value(100)));
    expect(store.usedBytes).toBe(afterSet - 400);
    store.execute(kvCommand.incr("n", 5));
    store.execute(kvCommand.zadd("z", 1, "member-1"));
    store.execute(kvCommand.zadd("z", 2, "member-2"));
    store.execute(kvCommand.zremrangebyscore("z", 0, 1));
    store.execute(kvCommand.del("k", "n"));
    store.execute(kvCommand.zremrangebyscore("z", 0, 10));
    expect(store.size).toBe(0);
    expect(store.usedBytes).toBe(0);
  });

  it("keeps nothing of a value larger than the whole budget, and the rest stays", () => {
    const evicted: string[] = [];
    const store = new MemoryStore({ maxBytes: 2_000, onEvict: (key) => evicted.push(key) });
    store.execute(kvCommand.set("small", value(100)));
    store.execute(kvCommand.set("huge", value(5_000)));
    expect(store.execute(kvCommand.get("huge"))).toBeNull();
    expect(store.execute(kvCommand.get("small"))).toBe(value(100));
    expect(evicted).toEqual(["huge"]);
  });

  it("does not count expired keys dropped to make room as evictions", () => {
    let now = 0;
    const evicted: string[] = [];
    const store = new MemoryStore({
      maxBytes: budgetFor(2, 1_000),
      now: () => now,
      onEvict: (k) => evicted.push(k),
    });
    store.execute(kvCommand.set("old", value(1_000), { ttlSeconds: 1 }));
    store.execute(kvCommand.set("live", value(1_000)));
    now = 5_000;
    store.execute(kvCommand.set("new", value(1_000)));
    expect(evicted).toEqual([]);
    expect(store.execute(kvCommand.get("live"))).toBe(value(1_000));
  });

  it("reads its budget from SEARCHMUX_MEMORY_KV_MB and refuses nonsense", () => {
    expect(memoryKvBytes({})).toBe(32 * 1024 * 1024);
    expect(memoryKvBytes({ SEARCHMUX_MEMORY_KV_MB: "8" })).toBe(8 * 1024 * 1024);
    expect(memoryKvBytes({ SEARCHMUX_MEMORY_KV_MB: " 0.5 " })).toBe(512 * 1024);
    for (const bad of ["0", "-1", "lots"]) {
      expect(() => memoryKvBytes({ SEARCHMUX_MEMORY_KV_MB: bad })).toThrow(/SEARCHMUX_MEMORY_KV_MB/);
    }
  });
});
