import { describe, expect, it } from "vitest";
import { createRedisKv } from "@/lib/kv/redis";
import { describeKvContract, TEST_REDIS_URL } from "./contract";

describeKvContract("redis", () => createRedisKv(TEST_REDIS_URL));

describe("Redis adapter when Redis is unreachable", () => {
  it("fails fast instead of queueing commands", async () => {
    const kv = createRedisKv("redis://127.0.0.1:1");
    const started = Date.now();
    await expect(kv.ping()).rejects.toThrow();
    await expect(kv.get("k")).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(3_000);
    await kv.close();
  });
});
