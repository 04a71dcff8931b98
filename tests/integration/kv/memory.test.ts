import { describe, expect, it } from "vitest";
import { kvCommand } from "@/lib/kv/commands";
import { createMemoryKv, MemoryStore } from "@/lib/kv/memory";
import { describeKvContract } from "./contract";

describeKvContract("memory", createMemoryKv);

describe("MemoryStore sweep", () => {
  it("drops expired keys nobody reads again and keeps the rest", () => {
    let now = 0;
    const store = new MemoryStore(() => now);
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
    const store = new MemoryStore(() => now);
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
