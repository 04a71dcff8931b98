import { describe, expect, it } from "vitest";
import { createRedisKv } from "@/lib/kv/redis";
import { describeKvContract, TEST_REDIS_URL } from "./contract";

describeKvContract("redis", () => createRedisKv(TEST_REDIS_URL));

describe("Redis adapter when Redis is unreachable", () => {
  it("fails fast instead of queueing commands", async () => {
    const kv = createRedisKv("redis://127.0.0.1:1");
    // Each command gives up after one failed reconnect: not queued until Redis comes back, nor held to the
    // 5 s command timeout ("Command timed out").
    const afterOneRetry = /max retries per request limit \(which is 1\)/;
    await expect(kv.ping()).rejects.toThrow(afterOneRetry);
    await expect(kv.get("k")).rejects.toThrow(afterOneRetry);
    await kv.close();
  });
});
