/**
 * The one behavioural contract every `Kv` adapter must meet, run by each adapter's test file.
 * Keys carry a per-run prefix and are deleted afterwards, so runs against a shared Redis never
 * collide or leave data behind.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Kv, KvCommandError } from "@/lib/kv";
import { testRedisUrl } from "@/tests/support/test-redis";

/** The Redis used by the redis and upstash suites: the tests' own database (tests/support/test-redis.ts). */
export const TEST_REDIS_URL = testRedisUrl();

const TTL_WAIT_MS = 1_100;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function describeKvContract(label: string, createKv: () => Kv | Promise<Kv>): void {
  describe(`Kv contract: ${label}`, () => {
    let kv: Kv;
    const prefix = `searchmux-test:${randomUUID()}:`;
    const usedKeys = new Set<string>();
    const key = (name: string): string => {
      usedKeys.add(prefix + name);
      return prefix + name;
    };

    beforeAll(async () => {
      kv = await createKv();
    });
    afterAll(async () => {
      if (usedKeys.size > 0) await kv.del(...usedKeys);
      await kv.close();
    });

    it("reports its adapter name", () => {
      expect(kv.name).toBe(label);
    });

    it("answers ping", async () => {
      await expect(kv.ping()).resolves.toBeUndefined();
    });

    it("gets what was set, null for a missing key, and overwrites", async () => {
      const k = key("plain");
      expect(await kv.get(k)).toBeNull();
      expect(await kv.set(k, "one")).toBe(true);
      expect(await kv.get(k)).toBe("one");
      expect(await kv.set(k, "two")).toBe(true);
      expect(await kv.get(k)).toBe("two");
    });

    it("returns values exactly as stored, never parsed", async () => {
      const values = [
        "123",
        '{"a":1}',
        "true",
        "null",
        "[1,2]",
        "",
        "OK",
        "1e3",
        " padded ",
        "héllo 🌍 中文 ✓",
      ];
      const entries = values.map((value, index) => ({ key: key(`verbatim-${index}`), value }));
      await Promise.all(entries.map((entry) => kv.set(entry.key, entry.value)));
      for (const entry of entries) {
        expect(await kv.get(entry.key)).toBe(entry.value);
      }
      const pipeline = kv.pipeline();
      for (const entry of entries) pipeline.get(entry.key);
      expect(await pipeline.exec()).toEqual(values);
    });

    it("writes with onlyIfAbsent only when the key is missing", async () => {
      const k = key("nx");
      expect(await kv.set(k, "first", { onlyIfAbsent: true })).toBe(true);
      expect(await kv.set(k, "second", { onlyIfAbsent: true, ttlSeconds: 60 })).toBe(false);
      expect(await kv.get(k)).toBe("first");
      expect(await kv.ttl(k)).toBe(-1);
    });

    it("expires keys set with a TTL and keys given one by expire()", async () => {
      const withTtl = key("ttl-set");
      const expired = key("ttl-expire");
      const nxWithTtl = key("ttl-nx");
      const counter = key("ttl-incr");
      await kv.set(withTtl, "v", { ttlSeconds: 1 });
      await kv.set(expired, "v");
      expect(await kv.expire(expired, 1)).toBe(true);
      expect(await kv.set(nxWithTtl, "v", { ttlSeconds: 1, onlyIfAbsent: true })).toBe(true);
      await kv.set(counter, "1", { ttlSeconds: 1 });
      expect(await kv.incr(counter)).toBe(2); // INCR keeps the expiry
      expect(await kv.ttl(withTtl)).toBe(1);

      await sleep(TTL_WAIT_MS);

      for (const k of [withTtl, expired, nxWithTtl, counter]) {
        expect(await kv.get(k)).toBeNull();
        expect(await kv.ttl(k)).toBe(-2);
      }
      expect(await kv.set(nxWithTtl, "again", { onlyIfAbsent: true })).toBe(true);
    });

    it("clears an expiry when a key is set again without one", async () => {
      const k = key("persist");
      await kv.set(k, "v", { ttlSeconds: 100 });
      expect(await kv.ttl(k)).toBe(100);
      await kv.set(k, "v");
      expect(await kv.ttl(k)).toBe(-1);
    });

    it("reports ttl and expire with Redis semantics", async () => {
      const k = key("ttl");
      expect(await kv.ttl(k)).toBe(-2);
      expect(await kv.expire(k, 10)).toBe(false);
      await kv.set(k, "v");
      expect(await kv.ttl(k)).toBe(-1);
      expect(await kv.expire(k, 30)).toBe(true);
      expect(await kv.ttl(k)).toBe(30);
    });

    it("increments from zero, by a step, and leaves a string behind", async () => {
      const k = key("counter");
      expect(await kv.incr(k)).toBe(1);
      expect(await kv.incr(k, 5)).toBe(6);
      expect(await kv.incr(k, -10)).toBe(-4);
      expect(await kv.get(k)).toBe("-4");
    });

    it("rejects incr on a non-integer value like Redis", async () => {
      for (const [name, value] of [
        ["text", "abc"],
        ["float", "1.5"],
        ["json", '{"a":1}'],
      ] as const) {
        const k = key(`not-int-${name}`);
        await kv.set(k, value);
        const failure = kv.incr(k);
        await expect(failure).rejects.toBeInstanceOf(KvCommandError);
        await expect(failure).rejects.toThrow(/not an integer/);
        expect(await kv.get(k)).toBe(value);
      }
    });

    it("deletes several keys and counts only those that existed", async () => {
      const [a, b, missing] = [key("del-a"), key("del-b"), key("del-missing")];
      await kv.set(a, "1");
      await kv.set(b, "2");
      expect(await kv.del(a, b, missing)).toBe(2);
      expect(await kv.get(a)).toBeNull();
      expect(await kv.get(b)).toBeNull();
      expect(await kv.del(a)).toBe(0);
    });

    it("runs a pipeline in order with the same result types as direct commands", async () => {
      const [a, b, z] = [key("pipe-a"), key("pipe-b"), key("pipe-z")];
      await kv.set(b, "other");
      const results = await kv
        .pipeline()
        .set(a, "1")
        .get(a)
        .incr(a, 2)
        .get(a)
        .set(a, "x", { onlyIfAbsent: true })
        .expire(a, 50)
        .ttl(a)
        .del(a, b)
        .get(a)
        .ttl(a)
        .zadd(z, 1, "m")
        .zcard(z)
        .zremrangebyscore(z, Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY)
        .exec();
      expect(results).toEqual([true, "1", 3, "3", false, true, 50, 2, null, -2, 1, 1, 1]);
    });

    it("resolves an empty pipeline to an empty list", async () => {
      expect(await kv.pipeline().exec()).toEqual([]);
    });

    it("runs every pipelined command and then rejects with the first failure", async () => {
      const [text, after] = [key("pipe-fail-text"), key("pipe-fail-after")];
      const failure = kv.pipeline().set(text, "abc").incr(text).set(after, "ran").exec();
      await expect(failure).rejects.toBeInstanceOf(KvCommandError);
      await expect(failure).rejects.toThrow(/not an integer/);
      expect(await kv.get(after)).toBe("ran");
    });

    it("keeps a sorted set for sliding windows", async () => {
      const z = key("zset");
      expect(await kv.zcard(z)).toBe(0);
      expect(await kv.zadd(z, 1, "a")).toBe(1);
      expect(await kv.zadd(z, 2, "b")).toBe(1);
      expect(await kv.zadd(z, 3, "c")).toBe(1);
      expect(await kv.zadd(z, 1.5, "a")).toBe(0);
      expect(await kv.zcard(z)).toBe(3);
      expect(await kv.zremrangebyscore(z, 0, 2)).toBe(2);
      expect(await kv.zcard(z)).toBe(1);
      expect(await kv.zremrangebyscore(z, Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY)).toBe(1);
      expect(await kv.ttl(z)).toBe(-2); // an emptied sorted set is deleted
    });

    it("runs the sliding-window step as one pipeline", async () => {
      const z = key("window");
      const now = 1_700_000_000_000;
      await kv.zadd(z, now - 120_000, "stale");
      const results = await kv
        .pipeline()
        .zremrangebyscore(z, Number.NEGATIVE_INFINITY, now - 60_000)
        .zadd(z, now, "request-1")
        .zcard(z)
        .expire(z, 60)
        .exec();
      expect(results).toEqual([1, 1, 1, true]);
    });

    it("refuses a string command on a sorted set", async () => {
      const z = key("wrongtype");
      await kv.zadd(z, 1, "m");
      await expect(kv.get(z)).rejects.toThrow(/WRONGTYPE/);
      await expect(kv.incr(z)).rejects.toThrow(/WRONGTYPE/);
    });

    it("rejects arguments no backend accepts alike", async () => {
      const k = key("invalid");
      await expect(kv.set(k, "v", { ttlSeconds: 0 })).rejects.toThrow(RangeError);
      await expect(kv.set(k, "v", { ttlSeconds: 1.5 })).rejects.toThrow(RangeError);
      await expect(kv.expire(k, -1)).rejects.toThrow(RangeError);
      await expect(kv.incr(k, 0.5)).rejects.toThrow(RangeError);
      await expect(kv.del()).rejects.toThrow(RangeError);
      await expect(kv.zadd(k, Number.NaN, "m")).rejects.toThrow(RangeError);
      expect(() => kv.pipeline().expire(k, 0)).toThrow(RangeError);
      expect(await kv.get(k)).toBeNull();
    });
  });
}
