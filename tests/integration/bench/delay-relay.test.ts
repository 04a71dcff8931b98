import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRedisKv } from "@/lib/kv/redis";
import type { Kv } from "@/lib/kv/types";
import {
  type DelayRelay,
  measuredRoundTripMs,
  startDelayRelay,
  throughRelay,
} from "@/tests/reliability/support/delay-relay";
import { testRedisUrl } from "@/tests/support/test-redis";

const RTT_MS = 20;

describe("the delay relay in front of Redis", () => {
  let relay: DelayRelay;
  let kv: Kv;
  const key = `smx:test:relay:${process.pid}`;

  beforeAll(async () => {
    const redis = new URL(testRedisUrl());
    relay = await startDelayRelay({
      target: { host: redis.hostname, port: Number(redis.port || 6379) },
      rttMs: RTT_MS,
    });
    kv = createRedisKv(throughRelay(testRedisUrl(), relay));
    await kv.ping();
  });
  afterAll(async () => {
    await kv?.del(key);
    await kv?.close();
    await relay?.close();
  });

  it("adds its round-trip time to each command that waits for an answer, and counts them", async () => {
    relay.resetRoundTrips();
    const started = performance.now();
    await kv.set(key, "1");
    await kv.get(key);
    await kv.incr(key);
    const elapsed = performance.now() - started;

    expect(relay.roundTrips()).toBe(3);
    expect(elapsed).toBeGreaterThanOrEqual(3 * RTT_MS - 2);
  });

  it("counts a pipeline as one round trip and keeps replies in order", async () => {
    relay.resetRoundTrips();
    const started = performance.now();
    const replies = await kv.pipeline().set(key, "5").incr(key, 2).get(key).exec();
    const elapsed = performance.now() - started;

    expect(replies).toEqual([true, 7, "7"]);
    // One round trip, counted by the relay: the delay is added once, not per command.
    expect(relay.roundTrips()).toBe(1);
    expect(elapsed).toBeGreaterThanOrEqual(RTT_MS - 2);
  });

  it("measures the round trip it adds: at least the nominal one, one round trip per sample", async () => {
    relay.resetRoundTrips();
    const measured = await measuredRoundTripMs(relay, 10);
    expect(measured).toBeGreaterThanOrEqual(RTT_MS - 1);
    // Each ping is one round trip through the relay, so the median is that of single round trips. How close
    // it comes to the nominal one depends on the machine's load: the bench prints it with every --rtt run.
    expect(relay.roundTrips()).toBe(10);
  });

  it("rewrites a service URL to the relay, keeping credentials and database", () => {
    expect(throughRelay("redis://:pw@10.0.0.5:6380/15", { host: "127.0.0.1", port: 4000 })).toBe(
      "redis://:pw@127.0.0.1:4000/15",
    );
  });
});
